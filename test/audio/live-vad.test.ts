import { afterEach, describe, expect, it } from 'vitest';
import { createVadEngine } from '../../src/audio/live/vad-engine.ts';
import type { LiveEngine, LiveEvent } from '../../src/audio/live/contract.ts';
import { ConfigStore } from '../../src/config/store.ts';
import { audioHarness, engineContext as context, pcmBytes, spokenPcm, tone } from '../helpers/audio.ts';
import { gate } from '../helpers/openai-server.ts';

const RATE = 16000;
/** A tone the WebRTC detector keeps calling voice (it adapts to a low hum within frames). */
const VOICED_HZ = 300;

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
    return spokenPcm(harness.audio, text, 1, RATE);
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

  it('ends an utterance after LIVE_VAD_SILENCE_MS of silence, read when each session opens', async () => {
    const config = ConfigStore.fromSources({ environment: { LIVE_VAD_SILENCE_MS: '300' } });
    const engine = await createVadEngine()(context(config));
    /** Stream seconds (the engine's at_s, counted in frames, not wall clock) from the end of a 1 s tone to speech_end. */
    const silenceBeforeEnd = async (session: string) => {
      await engine.openSession(session, { sampleRate: RATE });
      const events: LiveEvent[] = [];
      const reading = (async () => {
        for await (const event of engine.receiveEvents(session)) events.push(event);
      })();
      const audio = new Int16Array(RATE * 3);
      audio.set(tone(1, RATE, VOICED_HZ), RATE / 2);
      for (let offset = 0; offset < audio.length; offset += RATE / 50) await engine.sendAudio?.(session, pcmBytes(audio.subarray(offset, offset + RATE / 50)));
      await engine.closeSession(session);
      await reading;
      const ends = events.filter((event) => event.vadSignal === 'speech_end');
      expect(ends).toHaveLength(1);
      return Number(ends[0]?.metadata.at_s) - 1.5;
    };
    const short = await silenceBeforeEnd('short');
    await config.set('LIVE_VAD_SILENCE_MS', '1200');
    const long = await silenceBeforeEnd('long');
    // The detector's own hangover (a few frames heard as voice after the tone) comes on top of the setting.
    expect(short).toBeGreaterThanOrEqual(0.3);
    expect(short).toBeLessThan(0.5);
    expect(long - short).toBeCloseTo(0.9, 5);
  });

  it('waits for the voiced run a session asks for before speech_start', async () => {
    const engine = await createVadEngine()(context());
    const starts = async (session: string, burstS: number, minSpeechMs?: number) => {
      await engine.openSession(session, { sampleRate: RATE, ...(minSpeechMs === undefined ? {} : { minSpeechMs }) });
      const events: LiveEvent[] = [];
      const reading = (async () => {
        for await (const event of engine.receiveEvents(session)) events.push(event);
      })();
      const audio = new Int16Array(RATE * 2);
      audio.set(tone(burstS, RATE, VOICED_HZ), RATE / 2);
      for (let offset = 0; offset < audio.length; offset += RATE / 50) await engine.sendAudio?.(session, pcmBytes(audio.subarray(offset, offset + RATE / 50)));
      await engine.closeSession(session);
      await reading;
      return events.filter((event) => event.vadSignal === 'speech_start').length;
    };
    // A 60 ms burst (residual echo) starts speech by default, not where 200 ms are asked; a longer one does.
    expect(await starts('default', 0.06)).toBe(1);
    expect(await starts('guarded', 0.06, 200)).toBe(0);
    expect(await starts('spoken', 0.4, 200)).toBe(1);
  });

  it('never lets partials pile up behind a slow recogniser', async () => {
    let running = 0;
    let most = 0;
    // Slower than the whole utterance: no transcription ends before every chunk has been sent.
    const recogniser = gate();
    const transcribe = async (pcm: Int16Array) => {
      running += 1;
      most = Math.max(most, running);
      await recogniser.release;
      running -= 1;
      return `${pcm.length}`;
    };
    const engine = await createVadEngine(transcribe)(context());
    await engine.openSession('s', { sampleRate: RATE });
    const audio = await spoken('A slow recogniser must not receive a queue of stale partial requests for this sentence.');
    const send = feeder(engine);
    for (let offset = 0; offset < audio.length; offset += RATE / 50) {
      await send(audio.subarray(offset, offset + RATE / 50));
      // Turns of the event loop, where a partial would be asked for if the engine queued them.
      if (offset % (RATE / 2) === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    recogniser.open();
    await engine.closeSession('s');
    // One partial at a time; the utterance's final may run beside the last one, never behind it.
    expect(most).toBeLessThanOrEqual(2);
  });

  it("sends the final without waiting for a partial still being transcribed, and drops that partial's words", async () => {
    let releasePartial: (text: string) => void = () => undefined;
    const calls: string[] = [];
    // The first call (a partial of the utterance so far) hangs until released; the final answers at once.
    const transcribe = (pcm: Int16Array) => {
      calls.push(calls.length === 0 ? 'partial' : 'final');
      return calls.length === 1 ? new Promise<string>((resolve) => (releasePartial = resolve)) : Promise.resolve(`final of ${pcm.length}`);
    };
    const engine = await createVadEngine(transcribe)(context());
    await engine.openSession('s', { sampleRate: RATE });
    const events: LiveEvent[] = [];
    const reading = (async () => {
      for await (const event of engine.receiveEvents('s')) events.push(event);
    })();
    const audio = await spoken('This sentence is long enough for one partial transcript before it ends.');
    const send = feeder(engine);
    for (let offset = 0; offset < audio.length; offset += RATE / 50) await send(audio.subarray(offset, offset + RATE / 50));
    await expect.poll(() => events.some((event) => event.type === 'TRANSCRIPT' && event.isFinal)).toBe(true);
    expect(calls).toEqual(['partial', 'final']);
    releasePartial('stale words');
    await engine.closeSession('s');
    await reading;
    expect(events.filter((event) => event.type === 'TRANSCRIPT').map((event) => event.isFinal)).toEqual([true]);
  });

  it('offers the utterance as an end candidate when the speaker pauses, withdraws it when voice comes back, and keeps the last as the final', async () => {
    let calls = 0;
    // Each recognition says which call it was: a final that reuses a candidate's recognition reads the same.
    const transcribe = async () => `call ${++calls}`;
    const config = ConfigStore.fromSources({ environment: { LIVE_VAD_SILENCE_MS: '600', LIVE_VAD_ANTICIPATE_MS: '200' } });
    const engine = await createVadEngine(transcribe)(context(config));
    const heard = async (session: string, anticipate: boolean) => {
      await engine.openSession(session, { sampleRate: RATE, anticipate });
      const events: LiveEvent[] = [];
      const reading = (async () => {
        for await (const event of engine.receiveEvents(session)) events.push(event);
      })();
      // Half a second of silence, a word, a 450 ms pause (past 200 even after the detector's hangover, short of 600), another word, then silence.
      const audio = new Int16Array(RATE * 3);
      audio.set(tone(0.3, RATE, VOICED_HZ), RATE / 2);
      audio.set(tone(0.2, RATE, VOICED_HZ), RATE * 1.25);
      for (let offset = 0; offset < audio.length; offset += RATE / 50) {
        await engine.sendAudio?.(session, pcmBytes(audio.subarray(offset, offset + RATE / 50)));
        // Recognition is asynchronous: each chunk lets the one in progress finish, as real time would.
        await new Promise((resolve) => setImmediate(resolve));
      }
      await engine.closeSession(session);
      await reading;
      return events
        .filter((event) => event.type === 'TRANSCRIPT' && (event.isFinal || event.metadata.end_candidate !== undefined))
        .map((event) => ({ final: event.isFinal, candidate: event.metadata.end_candidate, text: event.text, utterance: event.metadata.utterance }));
    };

    const anticipated = await heard('anticipated', true);
    expect(anticipated).toEqual([
      { final: false, candidate: true, text: expect.any(String), utterance: 1 },
      { final: false, candidate: false, text: anticipated[0]?.text, utterance: 1 },
      { final: false, candidate: true, text: expect.any(String), utterance: 1 },
      { final: true, candidate: undefined, text: anticipated[2]?.text, utterance: 1 },
    ]);
    expect(anticipated[2]?.text).not.toBe(anticipated[0]?.text);
    // A session that did not ask gets its final only.
    expect((await heard('plain', false)).map((event) => event.final)).toEqual([true]);
  });
});
