import { describe, expect, it } from 'vitest';
import { runEspeakOffThread } from '../../src/audio/vox/espeak-worker.ts';
import { decodeWav } from '../../src/audio/wav.ts';

const LONG_TEXT = Array.from({ length: 6 }, () => 'The quick brown fox jumps over the lazy dog while the band plays on.').join(' ');

describe('espeak-ng on its own thread', () => {
  it('synthesises while the main thread goes on with its own work', async () => {
    await runEspeakOffThread({ args: ['--version'] });
    const order: string[] = [];
    const speech = runEspeakOffThread({ args: ['-v', 'en-us'], text: LONG_TEXT }).then((result) => {
      order.push('speech');
      return result;
    });
    // Run on the main thread, the utterance would hold it to the end: the answer would come before the loop turned once.
    for (let turn = 0; turn < 10; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    order.push('ten turns of the main thread');
    const wav = decodeWav((await speech).wav as Uint8Array);
    expect(wav.samples.length / wav.sampleRate).toBeGreaterThan(5);
    expect(order).toEqual(['ten turns of the main thread', 'speech']);
  });

  it('answers runs asked at the same time, each with its own audio', async () => {
    const [one, two] = await Promise.all([
      runEspeakOffThread({ args: ['-v', 'en-us'], text: 'One.' }),
      runEspeakOffThread({ args: ['-v', 'en-us'], text: 'This one is a good deal longer than the first.' }),
    ]);
    expect((one.wav?.length ?? 0) < (two.wav?.length ?? 0)).toBe(true);
  });
});
