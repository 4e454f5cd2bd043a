import { describe, expect, it } from 'vitest';
import { runEspeakOffThread } from '../../src/audio/vox/espeak-worker.ts';
import { decodeWav } from '../../src/audio/wav.ts';

const LONG_TEXT = Array.from({ length: 6 }, () => 'The quick brown fox jumps over the lazy dog while the band plays on.').join(' ');

describe('espeak-ng on its own thread', () => {
  it('synthesises while the main thread goes on with its own work', async () => {
    await runEspeakOffThread({ args: ['--version'] });
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 10);
    const started = performance.now();
    const result = await runEspeakOffThread({ args: ['-v', 'en-us'], text: LONG_TEXT });
    const elapsed = performance.now() - started;
    clearInterval(ticker);
    const wav = decodeWav(result.wav as Uint8Array);
    expect(wav.samples.length / wav.sampleRate).toBeGreaterThan(5);
    // Run on the main thread, the utterance held it from start to end and the ticker could not fire.
    expect(ticks).toBeGreaterThanOrEqual(Math.floor(elapsed / 10 / 4));
    expect(ticks).toBeGreaterThanOrEqual(5);
  });

  it('answers runs asked at the same time, each with its own audio', async () => {
    const [one, two] = await Promise.all([
      runEspeakOffThread({ args: ['-v', 'en-us'], text: 'One.' }),
      runEspeakOffThread({ args: ['-v', 'en-us'], text: 'This one is a good deal longer than the first.' }),
    ]);
    expect((one.wav?.length ?? 0) < (two.wav?.length ?? 0)).toBe(true);
  });
});
