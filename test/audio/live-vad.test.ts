import { afterEach, describe, expect, it } from 'vitest';
import { createVadEngine } from '../../src/audio/live/vad-engine.ts';
import type { LiveEngine, LiveEvent } from '../../src/audio/live/contract.ts';
import { resample } from '../../src/audio/live/webrtc-vad.ts';
import { decodeWav } from '../../src/audio/wav.ts';
import { ConfigStore } from '../../src/config/store.ts';
import { audioHarness, pcmBytes, silentLogger } from '../helpers/audio.ts';

const RATE = 16000;
const context = () => ({ logger: silentLogger(), settings: {}, config: ConfigStore.fromSources({}) });

/** Feeds 20 ms chunks; the vad engine takes audio, so a missing sendAudio is a failure, not a skip. */
function feeder(engine: LiveEngine) {
  if (!engine.sendAudio) throw new Error('the vad engine must take audio');
  const send = engine.sendAudio.bind(engine);
  return (chunk: Int16Array) => send('s', pcmBytes(chunk));
}

describe('the vad Live engine', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  /** Half a second of silence, the sentence spoken by the local engine at 16 kHz, then a second of silence. */
  async function spoken(text: string): Promise<Int16Array> {
    const harness = await audioHarness();
    close = harness.close;
    const engine = await harness.audio.engines.vox.get('local');
    const wav = decodeWav((await engine.generate(text, undefined, { signal: new AbortController().signal })) as Uint8Array);
    const speech = resample(wav.samples, wav.sampleRate, RATE);
    const all = new Int16Array(RATE / 2 + speech.length + RATE);
    all.set(speech, RATE / 2);
    return all;
  }

  it('sends partial transcripts of a long utterance while it lasts, then its final, in order', async () => {
    const heard: number[] = [];
    // A recogniser that reports how much audio it was given, so each transcript shows what it covered.
    const transcribe = async (pcm: Int16Array) => {
      heard.push(pcm.length);
      return `${pcm.length} samples`;
    };
    const engine = await createVadEngine(transcribe)(context());
    await engine.openSession('s', { sampleRate: RATE });
    const events: LiveEvent[] = [];
    const reading = (async () => {
      for await (const event of engine.receiveEvents('s')) events.push(event);
    })();
    const audio = await spoken('This sentence is long enough for the listener to hear a few words before it ends, and then some more.');
    const send = feeder(engine);
    for (let offset = 0; offset < audio.length; offset += RATE / 50) {
      await send(audio.subarray(offset, offset + RATE / 50));
      // Real-time pace matters only to the recogniser; a tick lets a partial finish between chunks.
      if (offset % (RATE / 2) === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await engine.closeSession('s');
    await reading;

    const transcripts = events.filter((event) => event.type === 'TRANSCRIPT');
    const partials = transcripts.filter((event) => !event.isFinal);
    const finals = transcripts.filter((event) => event.isFinal);
    expect(partials.length).toBeGreaterThanOrEqual(2);
    expect(finals).toHaveLength(1);
    expect(transcripts.at(-1)).toBe(finals[0]);
    const covered = (event: LiveEvent) => Number.parseInt(String(event.text), 10);
    const partialLengths = partials.map(covered);
    expect(partialLengths).toEqual([...partialLengths].sort((a, b) => a - b));
    expect(Math.max(...partialLengths)).toBeLessThan(covered(finals[0] as LiveEvent));
    const signals = events.filter((event) => event.type === 'VAD').map((event) => event.vadSignal);
    expect(signals).toEqual(['speech_start', 'speech_end']);
    expect(heard.length).toBe(transcripts.length);
  });

  it('never lets partials pile up behind a slow recogniser', async () => {
    let running = 0;
    let most = 0;
    const transcribe = async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 200));
      running -= 1;
      return 'words';
    };
    const engine = await createVadEngine(transcribe)(context());
    await engine.openSession('s', { sampleRate: RATE });
    const audio = await spoken('A slow recogniser must not receive a queue of stale partial requests for this sentence.');
    const send = feeder(engine);
    for (let offset = 0; offset < audio.length; offset += RATE / 50) await send(audio.subarray(offset, offset + RATE / 50));
    await engine.closeSession('s');
    expect(most).toBe(1);
  });
});
