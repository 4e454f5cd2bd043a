import { readdir, readFile, utimes, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { VoxEngine, VoxRequest } from '../../src/audio/vox/contract.ts';
import type { SpokenAudio } from '../../src/audio/vox/outlets.ts';
import { decodeWav, isWav } from '../../src/audio/wav.ts';
import { audioHarness, pcmBytes, tone, toneWav } from '../helpers/audio.ts';
import { ManualClock } from '../helpers/manual-clock.ts';

type Harness = Awaited<ReturnType<typeof audioHarness>>;

/** A fake engine that records its calls. */
function recording(reply: (text: string) => Promise<Uint8Array | undefined>, extra: Partial<VoxEngine> = {}) {
  const calls: Array<{ text: string; emotion: string | undefined; request: Omit<VoxRequest, 'signal'> }> = [];
  const engine: VoxEngine = {
    ...extra,
    generate: async (text, emotion, { signal: _signal, ...request }) => {
      calls.push({ text, emotion, request });
      return reply(text);
    },
  };
  return { engine, calls };
}

function collectOutlet(harness: Harness, interfaceId = 'test') {
  const audio: SpokenAudio[] = [];
  const texts: string[] = [];
  harness.audio.vox.outlets.register(interfaceId, {
    audio: async (clip) => Boolean(audio.push(clip)),
    text: async (_path, text) => Boolean(texts.push(text)),
  });
  return { audio, texts };
}

describe('VoxPlugin.speak', () => {
  let harness: Harness;
  afterEach(async () => harness?.close());

  it('cleans the text, wraps PCM in WAV, writes it to VOX_OUTPUT_DIR and hands it to the interface with lip-sync', async () => {
    harness = await audioHarness({ ACTIVE_VOX_ENGINE: 'fake', VOX_OUTPUT_DIR: 'speech' });
    const { engine, calls } = recording(async () => pcmBytes(tone(0.5, 16000)), { outputFormat: 'pcm', sampleRate: 16000 });
    harness.audio.engines.vox.register('fake', () => engine);
    const outlet = collectOutlet(harness);

    const result = await harness.audio.vox.speak({
      text: '  Hello   there, how are you doing today? 🎉 ',
      interfacePath: 'test/chat-1',
      emotion: 'happy',
      mergedText: 'Hello there!',
    });

    expect(result.status).toBe('success');
    expect(calls).toEqual([{ text: 'Hello there, how are you doing today?', emotion: 'happy', request: { language: 'en' } }]);
    const file = await readFile(join(harness.cwd, 'speech', result.filename as string));
    expect(isWav(file)).toBe(true);
    expect(decodeWav(file).sampleRate).toBe(16000);
    expect(result.audio_duration_s).toBe(0.5);
    expect(result.url).toBe(`/tts/${result.filename}`);
    expect(result.lipsync?.mouths.some((mouth) => mouth.value !== 'X')).toBe(true);
    expect(outlet.audio).toHaveLength(1);
    expect(outlet.audio[0]).toMatchObject({ interfacePath: 'test/chat-1', url: result.url, durationS: 0.5, text: 'Hello there!' });
    expect(result.delivered).toBe(true);
  });

  it("uses the engine's own lip-sync data when it gives valid data, with visemes for its letters", async () => {
    harness = await audioHarness({ ACTIVE_VOX_ENGINE: 'fake' });
    const own = {
      mouths: [
        { time: 0, value: 'D' },
        { time: 0.2, value: 'X' },
      ],
      duration: 0.25,
    };
    harness.audio.engines.vox.register('fake', () => recording(async () => toneWav(0.25), { lipsync: () => own }).engine);
    const result = await harness.audio.vox.speak({ text: 'Speak with your own mouth shapes', interfacePath: 'test/1' });
    expect(result.lipsync).toEqual({
      ...own,
      visemes: [
        { time: 0, viseme: 'aa', weight: 1 },
        { time: 0.2, viseme: 'sil', weight: 1 },
      ],
    });
  });

  it('cuts an engine that hangs at VOX_TIMEOUT_SECONDS and falls back to the merged text', async () => {
    const clock = new ManualClock();
    harness = await audioHarness({ ACTIVE_VOX_ENGINE: 'stuck', VOX_TIMEOUT_SECONDS: '20' }, clock);
    let aborted = false;
    let asked: () => void = () => undefined;
    const generating = new Promise<void>((resolve) => (asked = resolve));
    harness.audio.engines.vox.register('stuck', () => ({
      generate: (_text, _emotion, { signal }) =>
        new Promise<undefined>(() => {
          signal.addEventListener('abort', () => (aborted = true));
          asked();
        }),
    }));
    const outlet = collectOutlet(harness);
    const speaking = harness.audio.vox.speak({ text: 'This never gets spoken aloud', interfacePath: 'test/1', mergedText: 'The caption' });
    await generating;
    clock.advance(19_999);
    expect(aborted).toBe(false);
    clock.advance(1);
    const result = await speaking;
    expect(result).toMatchObject({ status: 'error', filename: null, fallback_text: true });
    expect(result.detail).toContain('VOX_TIMEOUT_SECONDS');
    expect(aborted).toBe(true);
    expect(outlet.texts).toEqual(['The caption']);
  });

  it('sends no text when VOX_FALLBACK_TO_TEXT is false, and leaves the text to a caller that asks', async () => {
    harness = await audioHarness({ ACTIVE_VOX_ENGINE: 'broken', VOX_FALLBACK_TO_TEXT: 'false' });
    harness.audio.engines.vox.register('broken', () => recording(async () => undefined).engine);
    const outlet = collectOutlet(harness);
    expect(await harness.audio.vox.speak({ text: 'Nothing comes out of this', interfacePath: 'test/1' })).toMatchObject({
      status: 'error',
      fallback_text: false,
    });
    await harness.config.set('VOX_FALLBACK_TO_TEXT', 'true');
    expect(await harness.audio.vox.speak({ text: 'Nothing comes out of this', interfacePath: 'test/1', textFallback: 'caller' })).toMatchObject({
      status: 'error',
      fallback_text: true,
    });
    expect(outlet.texts).toEqual([]);
  });

  it('skips when Vox is disabled or nothing but emoji is left', async () => {
    harness = await audioHarness({ ACTIVE_VOX_ENGINE: 'disabled', VOX_FALLBACK_TO_TEXT: 'false' });
    expect(await harness.audio.vox.speak({ text: 'hello', interfacePath: 'test/1' })).toMatchObject({ status: 'skipped', filename: null });
    await harness.config.set('ACTIVE_VOX_ENGINE', 'local');
    expect(await harness.audio.vox.speak({ text: '🎉🎉', interfacePath: 'test/1' })).toMatchObject({ status: 'skipped' });
  });

  it('routes a language to its override engine with the override voice and model; an explicit engine wins', async () => {
    harness = await audioHarness({
      ACTIVE_VOX_ENGINE: 'main',
      VOX_LANGUAGE_OVERRIDES: JSON.stringify({ 'fr-CA': { engine: 'french', voice: 'amelie', model: 'fr-large' } }),
    });
    const main = recording(async () => toneWav(0.1));
    const french = recording(async () => toneWav(0.1));
    harness.audio.engines.vox.register('main', () => main.engine);
    harness.audio.engines.vox.register('french', () => french.engine);
    const sentence = "Bonjour tout le monde, comment allez-vous aujourd'hui ?";
    expect((await harness.audio.vox.speak({ text: sentence, interfacePath: 'test/1' })).engine).toBe('french');
    expect(french.calls[0]?.request).toEqual({ language: 'fr', voice: 'amelie', model: 'fr-large' });
    expect((await harness.audio.vox.speak({ text: sentence, interfacePath: 'test/1', engine: 'main' })).engine).toBe('main');
    expect(main.calls[0]?.request).toEqual({ language: 'fr' });
  });

  it('reports an unknown explicit engine as an error, never a crash', async () => {
    harness = await audioHarness({ VOX_FALLBACK_TO_TEXT: 'false' });
    expect(await harness.audio.vox.speak({ text: 'hello there', interfacePath: 'test/1', engine: 'nope' })).toMatchObject({
      status: 'error',
      detail: 'Unknown Vox engine: nope',
    });
  });

  it('cleans up speech files older than an hour on its clock, at most every 30 s, but never files it did not write', async () => {
    const clock = new ManualClock();
    harness = await audioHarness({}, clock);
    const directory = join(harness.cwd, 'tmp_tts');
    await mkdir(directory, { recursive: true });
    const writtenAgo = async (name: string, minutes: number) => {
      const at = new Date(clock.now() - minutes * 60_000);
      await writeFile(join(directory, name), 'x');
      await utimes(join(directory, name), at, at);
    };
    await writtenAgo('vox-1-0123456789abcdef.wav', 120);
    await writtenAgo('keep-me.wav', 120);
    await writtenAgo('vox-2-0123456789abcdef.wav', 59);
    expect(await harness.audio.files.sweep(true)).toBe(1);
    expect((await readdir(directory)).sort()).toEqual(['keep-me.wav', 'vox-2-0123456789abcdef.wav']);
    // Two minutes on, the second file is past the hour; the next unforced sweep waits 30 s on the clock.
    clock.advance(2 * 60_000 - 1);
    expect(await harness.audio.files.sweep()).toBe(1);
    clock.advance(29_999);
    expect(await harness.audio.files.sweep()).toBe(0);
    await writtenAgo('vox-3-0123456789abcdef.wav', 61);
    clock.advance(1);
    expect(await harness.audio.files.sweep()).toBe(1);
    expect(await readdir(directory)).toEqual(['keep-me.wav']);
    expect(harness.audio.files.pathOf('../secret.wav')).toBeUndefined();
    expect(harness.audio.files.pathOf('keep-me.wav')).toBeUndefined();
  });
});

describe('the bundled local engine (espeak-ng WebAssembly)', () => {
  let harness: Harness;
  afterEach(async () => harness?.close());

  it('lists voices across languages as {code, name, language} and speaks in the detected language', async () => {
    harness = await audioHarness();
    const engine = await harness.audio.engines.vox.get('local');
    const speakers = (await engine.speakers?.()) ?? [];
    expect(speakers.length).toBeGreaterThan(50);
    expect(new Set(speakers.map((speaker) => speaker.language)).size).toBeGreaterThan(40);
    for (const code of ['en-us', 'fr-fr', 'de', 'it', 'es']) expect(speakers.map((speaker) => speaker.code)).toContain(code);
    expect(Object.keys(speakers[0] ?? {}).sort()).toEqual(['code', 'language', 'name']);

    const sample = await engine.sample?.('fr-fr');
    expect(isWav(sample as Uint8Array)).toBe(true);
    await expect(engine.sample?.('xx-nope')).rejects.toThrow('Unknown speaker');

    const result = await harness.audio.vox.speak({ text: 'Guten Morgen, wie geht es dir heute? Das Wetter ist schön.', interfacePath: 'test/1' });
    expect(result).toMatchObject({ status: 'success', engine: 'local', language: 'de' });
    expect(result.audio_duration_s).toBeGreaterThan(1);
  });
});
