import type { Logger } from '../../logging.ts';
import type { EngineFactory } from '../engine-registry.ts';
import { AsyncQueue } from './async-queue.ts';
import { liveEvent, type LiveEngine, type LiveEvent } from './contract.ts';
import { FRAME_MS, WebRtcVad } from './webrtc-vad.ts';

export const VAD_LIVE_ENGINE = 'vad';

/** Voiced frames in a row that start speech: 40 ms rejects clicks and still reacts well under 100 ms. */
const START_FRAMES = 2;
/** Unvoiced frames in a row that end it: 400 ms, longer than the pauses inside a sentence. */
const END_FRAMES = 20;
/** Audio kept before the start decision, so the utterance handed to STT has its first syllable. */
const PRE_ROLL_FRAMES = 10;
/** An utterance is cut (and transcribed) at this length, so a stuck "speech" state cannot grow forever. */
const MAX_UTTERANCE_S = 30;
/** New speech, in seconds, between two interim (partial) transcripts of the utterance so far. */
const PARTIAL_EVERY_S = 1;

/** Turns one finished utterance (16-bit mono PCM) into text; the Auris plugin in production. */
export type UtteranceTranscriber = (pcm: Int16Array, sampleRate: number) => Promise<string>;

interface Session {
  vad: WebRtcVad;
  events: AsyncQueue<LiveEvent>;
  speaking: boolean;
  voicedRun: number;
  silentRun: number;
  /** Recent audio while silent (pre-roll), the whole utterance while speaking. */
  frames: Int16Array[];
  /** Samples held in `frames`. */
  buffered: number;
  /** Frames decided so far: the time base of the events' `at_s` metadata. */
  decided: number;
  /** Transcriptions finish in order, one at a time: a partial is always followed by its utterance's final. */
  transcribing: Promise<void>;
  /** Transcriptions started and not finished; a partial starts only when none is, so none piles up. */
  pending: number;
  /** Samples of the current utterance at its last partial. */
  partialAt: number;
}

/**
 * The built-in Live engine `vad`: WebRTC voice-activity detection per session, with an async event
 * queue per session. It emits VAD speech_start / speech_end, and, when given a transcriber, partial
 * TRANSCRIPTs of the utterance so far while it lasts and a final one for each utterance (speech_start
 * to speech_end). It synthesises nothing itself
 * (supportsOutput false): replies are spoken through Vox.
 */
export function createVadEngine(transcribe?: UtteranceTranscriber, mode = 2): EngineFactory<LiveEngine> {
  return ({ logger }) => new VadEngine(logger, mode, transcribe);
}

class VadEngine implements LiveEngine {
  readonly supportsOutput = false;
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly logger: Logger,
    private readonly mode: number,
    private readonly transcribe: UtteranceTranscriber | undefined,
  ) {}

  get supportsInput(): boolean {
    return this.transcribe !== undefined;
  }

  async openSession(sessionId: string, options: { sampleRate: number }): Promise<void> {
    if (this.sessions.has(sessionId)) throw new Error(`session ${sessionId} is already open`);
    const vad = await WebRtcVad.create(options.sampleRate, this.mode);
    this.sessions.set(sessionId, {
      vad,
      events: new AsyncQueue(),
      speaking: false,
      voicedRun: 0,
      silentRun: 0,
      frames: [],
      buffered: 0,
      decided: 0,
      transcribing: Promise.resolve(),
      pending: 0,
      partialAt: 0,
    });
  }

  async closeSession(sessionId: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    this.sessions.delete(sessionId);
    session.vad.free();
    await session.transcribing;
    session.events.close();
  }

  receiveEvents(sessionId: string): AsyncIterable<LiveEvent> {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`no open session ${sessionId}`);
    return session.events;
  }

  async sendAudio(sessionId: string, chunk: Uint8Array): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`no open session ${sessionId}`);
    const samples = new Int16Array(chunk.buffer.slice(chunk.byteOffset, chunk.byteOffset + chunk.byteLength - (chunk.byteLength % 2)));
    const frameSamples = Math.round((session.vad.inputRate * FRAME_MS) / 1000);
    const decisions = session.vad.process(samples);
    // Decisions cover whole frames; the samples are kept in frame-sized pieces for the utterance buffer.
    session.frames.push(samples);
    session.buffered += samples.length;
    for (const voiced of decisions) this.step(sessionId, session, voiced, frameSamples);
    if (!session.speaking) trimTo(session, PRE_ROLL_FRAMES * frameSamples);
    else if (this.transcribe && session.pending === 0 && session.buffered - session.partialAt >= PARTIAL_EVERY_S * session.vad.inputRate) {
      session.partialAt = session.buffered;
      this.queueTranscript(sessionId, session, concat(session.frames), false);
    }
  }

  private step(sessionId: string, session: Session, voiced: boolean, frameSamples: number): void {
    session.decided += 1;
    const at = (session.decided * FRAME_MS) / 1000;
    if (!session.speaking) {
      session.voicedRun = voiced ? session.voicedRun + 1 : 0;
      if (session.voicedRun < START_FRAMES) return;
      session.speaking = true;
      session.silentRun = 0;
      session.partialAt = session.buffered;
      session.events.push(liveEvent('VAD', { vadSignal: 'speech_start', metadata: { at_s: round(at) } }));
      return;
    }
    session.silentRun = voiced ? 0 : session.silentRun + 1;
    if (session.silentRun < END_FRAMES && session.buffered < MAX_UTTERANCE_S * session.vad.inputRate) return;
    session.speaking = false;
    session.voicedRun = 0;
    session.events.push(liveEvent('VAD', { vadSignal: 'speech_end', metadata: { at_s: round(at) } }));
    const utterance = concat(session.frames);
    session.frames = [];
    session.buffered = 0;
    // The trailing silence that ended the utterance is dropped; recognisers do better without it.
    if (this.transcribe) this.queueTranscript(sessionId, session, utterance.subarray(0, Math.max(0, utterance.length - (END_FRAMES - 2) * frameSamples)), true);
  }

  /** A final transcript of a finished utterance, or a partial one of the utterance so far. */
  private queueTranscript(sessionId: string, session: Session, speech: Int16Array, isFinal: boolean): void {
    const transcribe = this.transcribe as UtteranceTranscriber;
    const rate = session.vad.inputRate;
    session.pending += 1;
    session.transcribing = session.transcribing.then(async () => {
      try {
        const text = (await transcribe(speech, rate)).trim();
        if (text !== '') session.events.push(liveEvent('TRANSCRIPT', { text, isFinal }));
      } catch (error) {
        // A failed partial is only a missed hint; the final of the utterance still comes.
        if (!isFinal) return;
        this.logger.warn({ err: error, session: sessionId }, 'transcribing an utterance failed');
        session.events.push(liveEvent('ERROR', { detail: error instanceof Error ? error.message : String(error) }));
      } finally {
        session.pending -= 1;
      }
    });
  }
}

function concat(frames: Int16Array[]): Int16Array {
  const out = new Int16Array(frames.reduce((sum, frame) => sum + frame.length, 0));
  let offset = 0;
  for (const frame of frames) {
    out.set(frame, offset);
    offset += frame.length;
  }
  return out;
}

/** Keeps only the newest `samples` samples of the buffered audio. */
function trimTo(session: Session, samples: number): void {
  while (session.buffered > samples && session.frames.length > 0) {
    const first = session.frames[0] as Int16Array;
    const excess = session.buffered - samples;
    if (first.length <= excess) {
      session.frames.shift();
      session.buffered -= first.length;
    } else {
      session.frames[0] = first.subarray(excess);
      session.buffered -= excess;
    }
  }
}

const round = (value: number) => Math.round(value * 1000) / 1000;
