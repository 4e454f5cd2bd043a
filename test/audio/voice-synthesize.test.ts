import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeWav, durationSeconds } from '../../src/audio/wav.ts';
import { createTestServices, type TestServices } from '../helpers/services.ts';
import { readFile } from 'node:fs/promises';

/** `voice.synthesize`: speech for no conversation (the radio's banter), a WAV file and nothing else. */
describe('the voice service synthesize', { timeout: 60_000 }, () => {
  let harness: TestServices | undefined;
  afterEach(async () => harness?.close());

  it('writes a WAV of the spoken text into VOX_OUTPUT_DIR with its duration, and speaks nowhere else', async () => {
    harness = await createTestServices();
    const spoken = await harness.services.voice.synthesize('That was a lovely song.');
    expect(dirname(spoken.path)).toBe(join(harness.cwd, 'tmp_tts'));
    const pcm = decodeWav(new Uint8Array(await readFile(spoken.path)));
    expect(spoken.durationS).toBeCloseTo(durationSeconds(pcm), 2);
    expect(spoken.durationS).toBeGreaterThan(0.5);
    // Not the avatar's speech: the body plays nothing.
    expect(harness.services.body.getAudio()).toBeNull();
  });

  it('uses the engine it is given, and says clearly when it cannot speak', async () => {
    harness = await createTestServices({ environment: { ACTIVE_VOX_ENGINE: 'disabled' } });
    await expect(harness.services.voice.synthesize('Hello')).rejects.toThrow(/Vox is disabled/);
    const spoken = await harness.services.voice.synthesize('Hello there', { engine: 'local' });
    expect(existsSync(spoken.path)).toBe(true);
    await expect(harness.services.voice.synthesize('Hello', { engine: 'no-such-engine' })).rejects.toThrow();
    await expect(harness.services.voice.synthesize('🎵')).rejects.toThrow(/nothing to say/);
  });
});
