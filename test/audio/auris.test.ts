import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AurisError } from '../../src/audio/auris/contract.ts';
import { chooseLocalModel } from '../../src/audio/auris/local-language.ts';
import { phrasesToJsgf } from '../../src/audio/auris/pocketsphinx-engine.ts';
import { audioHarness, silentLogger, toneWav, words } from '../helpers/audio.ts';
import { listeningFor } from '../helpers/voice-notes.ts';

type Harness = Awaited<ReturnType<typeof audioHarness>>;

const PHRASES = ['turn on the kitchen light', 'good morning', 'what time is it', 'play some music'];
const pocketsphinx = listeningFor(PHRASES);

describe('round trip on this machine: text → local TTS → WAV → offline STT', () => {
  let harness: Harness;
  afterEach(async () => harness?.close());

  it('hears the same words it said', async () => {
    harness = await audioHarness(pocketsphinx);
    for (const phrase of ['Turn on the kitchen light!', 'What time is it?']) {
      const spoken = await harness.audio.vox.speak({ text: phrase, interfacePath: 'test/1' });
      expect(spoken.status).toBe('success');
      const transcript = await harness.audio.auris.transcribeAudio(join(harness.cwd, 'tmp_tts', spoken.filename as string), 'audio/wav');
      expect(words(transcript)).toEqual(words(phrase));
    }
  });
});

describe('AurisPlugin.transcribe_audio', () => {
  let harness: Harness;
  afterEach(async () => harness?.close());

  const code = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AurisError);
    return (error as AurisError).code;
  };

  it('gives a clear error for a file that is not audio, and for a missing file', async () => {
    harness = await audioHarness(pocketsphinx);
    const text = join(harness.cwd, 'notes.wav');
    await writeFile(text, 'this is a text file wearing a .wav name');
    const error = await harness.audio.auris.transcribeAudio(text).catch((caught: unknown) => caught as AurisError);
    expect(error).toMatchObject({ code: 'not_audio', message: expect.stringContaining('not audio') });
    expect(await code(harness.audio.auris.transcribeAudio(join(harness.cwd, 'missing.wav')))).toBe('not_found');
  });

  it('transcribes a tone (no speech) to an empty or short string without failing', async () => {
    harness = await audioHarness(pocketsphinx);
    const path = join(harness.cwd, 'tone.wav');
    await writeFile(path, toneWav(0.5));
    expect(typeof (await harness.audio.auris.transcribeAudio(path, 'audio/wav'))).toBe('string');
  });

  it('is off while ACTIVE_AURIS_ENGINE is disabled and rejects unknown engines', async () => {
    harness = await audioHarness();
    const path = join(harness.cwd, 'tone.wav');
    await writeFile(path, toneWav(0.2));
    expect(await code(harness.audio.auris.transcribeAudio(path))).toBe('disabled');
    expect(await code(harness.audio.auris.transcribeAudio(path, undefined, 'whisper-nope'))).toBe('unknown_engine');
  });

  it('says clearly that no Vosk model is installed for the local engine (alias vosk)', async () => {
    harness = await audioHarness({ ACTIVE_AURIS_ENGINE: 'vosk' });
    const path = join(harness.cwd, 'tone.wav');
    await writeFile(path, toneWav(0.2));
    const error = await harness.audio.auris.transcribeAudio(path).catch((caught: unknown) => caught as AurisError);
    expect(error).toMatchObject({ code: 'engine_unavailable', message: expect.stringContaining('No Vosk model is installed') });
    await harness.config.set('AURIS_ENGINE_SETTINGS', JSON.stringify({ model_path: harness.cwd }));
    const again = (await harness.audio.auris.transcribeAudio(path, undefined, 'local').catch((caught: unknown) => caught)) as AurisError;
    expect(again.message).toContain('Not a Vosk model folder');
  });
});

describe('STT_LOCAL_LANGUAGE', () => {
  const models: Array<[string, string]> = [
    ['en-us', 'model-en'],
    ['fr', 'model-fr'],
  ];
  const base = { models, minConfidence: 0.5, wavPath: '/x.wav', logger: silentLogger() };

  it('uses an explicit language (regional codes match) without identification', async () => {
    const identify = vi.fn();
    expect(await chooseLocalModel({ ...base, setting: 'fr-CA', identify })).toEqual({ language: 'fr', model: 'model-fr', reason: 'configured' });
    expect(identify).not.toHaveBeenCalled();
  });

  it('auto: accepts an identified language at or above STT_LOCAL_LID_CONFIDENCE', async () => {
    const identify = async () => ({ language: 'fr', confidence: 0.8 });
    expect(await chooseLocalModel({ ...base, setting: 'auto', identify })).toMatchObject({ model: 'model-fr', reason: 'identified' });
  });

  it('auto: falls back to the first model below the threshold, on failure, or without an identifier', async () => {
    expect(await chooseLocalModel({ ...base, setting: 'auto', identify: async () => ({ language: 'fr', confidence: 0.3 }) })).toMatchObject({
      model: 'model-en',
      reason: 'fallback',
    });
    expect(await chooseLocalModel({ ...base, setting: 'auto', identify: async () => Promise.reject(new Error('no lid model')) })).toMatchObject({
      model: 'model-en',
      reason: 'fallback',
    });
    expect(await chooseLocalModel({ ...base, setting: 'auto', identify: undefined })).toMatchObject({ model: 'model-en', reason: 'fallback' });
  });
});

describe('pocketsphinx phrase lists', () => {
  it('become a one-rule JSGF grammar', () => {
    expect(phrasesToJsgf(['Good morning!', 'Turn on  the light'])).toBe('#JSGF V1.0;\ngrammar phrases;\npublic <phrase> = good morning | turn on the light;\n');
  });
});

describe('the deprecated silence-detection STT module', () => {
  it('warns on import and registers nothing', async () => {
    const harness = await audioHarness();
    const before = harness.audio.engines.auris.names();
    const warnings: string[] = [];
    const listener = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', listener);
    await import('../../src/audio/auris/silence-stt.ts');
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', listener);
    expect(warnings.some((warning) => warning.startsWith('DeprecationWarning') && warning.includes('silence-detection'))).toBe(true);
    expect(harness.audio.engines.auris.names()).toEqual(before);
    await harness.close();
  });
});
