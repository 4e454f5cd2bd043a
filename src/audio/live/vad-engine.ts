import type { ConfigStore } from '../../config/store.ts';
import type { Logger } from '../../logging.ts';
import type { EngineFactory } from '../engine-registry.ts';
import { AsyncQueue } from './async-queue.ts';
import { liveEvent, type LiveEngine, type LiveEvent, type OpenSessionOptions, type UtteranceTiming } from './contract.ts';
import { FRAME_MS, WebRtcVad } from './webrtc-vad.ts';

export const VAD_LIVE_ENGINE = 'vad';

/** Voiced frames in a row that start speech: 40 ms rejects clicks and still reacts well under 100 ms. */
const START_FRAMES = 2;
/** Audio kept before the voiced run that starts speech, so the utterance handed to STT has its first syllable. */
const PRE_ROLL_FRAMES = 8;
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
  /** Voiced frames in a row that start an utterance (START_FRAMES, or more when the session asks). */
  startFrames: number;
  /** Unvoiced frames in a row that end an utterance (LIVE_VAD_SILENCE_MS, longer than the pauses inside a sentence). */
  endFrames: number;
  /** performance.now() when the utterance's last voiced frame arrived: when the person stopped speaking. */
  voicedAt: number;
  /** performance.now() of the last speech_end decision, carried by that utterance's final transcript. */
  endedAt: number;
  /** Recent audio while silent (pre-roll), the whole utterance while speaking. */
  frames: Int16Array[];
  /** Samples held in `frames`. */
  buffered: number;
  /** Frames decided so far: the time base of the events' `at_s` metadata. */
  decided: number;
  /** Finals finish in order, one at a time. */
  transcribing: Promise<void>;
  /** Finals finished (sent, or empty): one per utterance, in order. */
  finalsDone: number;
  /**
   * The partial being transcribed (one at a time, so none piles up). A final never waits for it: at the
   * end of speech a partial is stale, and waiting would add its time to the answer's.
   */
  partial: Promise<void> | undefined;
  /** Utterances started so far: a partial's words are sent only before its own utterance's final. */
  utterance: number;
  /** Samples of the current utterance at its last partial. */
  partialAt: number;
  /** Unvoiced frames in a row after which the utterance so far is offered as an end candidate; 0: never. */
  candidateFrames: number;
  /** The current utterance's end candidate, until voice comes back (withdrawn) or the utterance ends. */
  candidate: Candidate | undefined;
}

/**
 * The utterance as it stood when the speaker paused: transcribed at once and sent as a partial with
 * `end_candidate: true`, so a conversation can start answering before the end is certain. Voice coming
 * back withdraws it (a partial with `end_candidate: false`); an end with no voice since reuses its text
 * as the final's, which is then the same.
 */
interface Candidate {
  utterance: number;
  text: Promise<string>;
  /** The text sent, once it was. */
  sent: string | undefined;
  withdrawn: boolean;
}

/**
 * The built-in Live engine `vad`: WebRTC voice-activity detection per session, with an async event
 * queue per session. It emits VAD speech_start / speech_end, and, when given a transcriber, partial
 * TRANSCRIPTs of the utterance so far while it lasts and a final one for each utterance (speech_start
 * to speech_end). It synthesises nothing itself
 * (supportsOutput false): replies are spoken through Vox.
 */
export function createVadEngine(transcribe?: UtteranceTranscriber, mode = 2): EngineFactory<LiveEngine> {
  return ({ logger, config }) => new VadEngine(logger, config, mode, transcribe);
}

class VadEngine implements LiveEngine {
  readonly supportsOutput = false;
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly logger: Logger,
    private readonly config: ConfigStore,
    private readonly mode: number,
    private readonly transcribe: UtteranceTranscriber | undefined,
  ) {}

  get supportsInput(): boolean {
    return this.transcribe !== undefined;
  }

  async openSession(sessionId: string, options: OpenSessionOptions): Promise<void> {
    if (this.sessions.has(sessionId)) throw new Error(`session ${sessionId} is already open`);
    const vad = await WebRtcVad.create(options.sampleRate, this.mode);
    this.sessions.set(sessionId, {
      vad,
      events: new AsyncQueue(),
      speaking: false,
      voicedRun: 0,
      silentRun: 0,
      startFrames: Math.max(START_FRAMES, Math.ceil((options.minSpeechMs ?? 0) / FRAME_MS)),
      // Read per session: a changed setting applies to the next conversation, never mid-utterance.
      endFrames: Math.round(this.config.get('LIVE_VAD_SILENCE_MS') / FRAME_MS),
      voicedAt: 0,
      endedAt: 0,
      frames: [],
      buffered: 0,
      decided: 0,
      transcribing: Promise.resolve(),
      finalsDone: 0,
      partial: undefined,
      utterance: 0,
      partialAt: 0,
      candidateFrames: options.anticipate ? candidateFrames(this.config) : 0,
      candidate: undefined,
    });
  }

  async closeSession(sessionId: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    this.sessions.delete(sessionId);
    session.vad.free();
    await Promise.all([session.transcribing, session.partial]);
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
    if (!session.speaking) trimTo(session, (session.startFrames + PRE_ROLL_FRAMES) * frameSamples);
    else if (this.transcribe && !session.partial && session.buffered - session.partialAt >= PARTIAL_EVERY_S * session.vad.inputRate) {
      session.partialAt = session.buffered;
      this.startPartial(session, concat(session.frames));
    }
  }

  private step(sessionId: string, session: Session, voiced: boolean, frameSamples: number): void {
    session.decided += 1;
    const at = (session.decided * FRAME_MS) / 1000;
    if (!session.speaking) {
      session.voicedRun = voiced ? session.voicedRun + 1 : 0;
      if (session.voicedRun < session.startFrames) return;
      session.speaking = true;
      session.utterance += 1;
      session.silentRun = 0;
      session.voicedAt = performance.now();
      session.partialAt = session.buffered;
      session.events.push(liveEvent('VAD', { vadSignal: 'speech_start', metadata: { at_s: round(at) } }));
      return;
    }
    session.silentRun = voiced ? 0 : session.silentRun + 1;
    if (voiced) {
      session.voicedAt = performance.now();
      if (session.candidate) this.withdrawCandidate(session, session.candidate);
    } else if (session.silentRun === session.candidateFrames && this.transcribe) this.offerCandidate(session, frameSamples);
    if (session.silentRun < session.endFrames && session.buffered < MAX_UTTERANCE_S * session.vad.inputRate) return;
    session.speaking = false;
    session.voicedRun = 0;
    session.endedAt = performance.now();
    session.events.push(liveEvent('VAD', { vadSignal: 'speech_end', metadata: { at_s: round(at) } }));
    const utterance = concat(session.frames);
    session.frames = [];
    session.buffered = 0;
    const candidate = session.candidate;
    session.candidate = undefined;
    // The trailing silence that ended the utterance is dropped; recognisers do better without it.
    if (this.transcribe) this.queueFinal(sessionId, session, withoutTrailingSilence(utterance, session.endFrames, frameSamples), candidate);
  }

  /** The speaker paused for LIVE_VAD_ANTICIPATE_MS: the utterance so far is transcribed and offered as an end candidate. */
  private offerCandidate(session: Session, frameSamples: number): void {
    const transcribe = this.transcribe as UtteranceTranscriber;
    const speech = withoutTrailingSilence(concat(session.frames), session.candidateFrames, frameSamples);
    const timing: UtteranceTiming = { speech_ended_at: performance.now(), voiced_at: session.voicedAt };
    const candidate: Candidate = {
      utterance: session.utterance,
      text: transcribe(speech, session.vad.inputRate).then((text) => text.trim()),
      sent: undefined,
      withdrawn: false,
    };
    session.candidate = candidate;
    candidate.text.then(
      (text) => {
        if (candidate.withdrawn || text === '' || session.finalsDone !== candidate.utterance - 1) return;
        candidate.sent = text;
        const metadata = { ...timing, end_candidate: true, utterance: candidate.utterance };
        session.events.push(liveEvent('TRANSCRIPT', { text, isFinal: false, metadata }));
      },
      // Only a missed head start: the final transcribes the utterance again.
      () => undefined,
    );
  }

  /** Voice came back: the speaker had not finished, and whoever started on the candidate drops it. */
  private withdrawCandidate(session: Session, candidate: Candidate): void {
    session.candidate = undefined;
    candidate.withdrawn = true;
    if (candidate.sent === undefined) return;
    const metadata = { end_candidate: false, utterance: candidate.utterance };
    session.events.push(liveEvent('TRANSCRIPT', { text: candidate.sent, isFinal: false, metadata }));
  }

  /** The final transcript of a finished utterance, after the finals before it; an end candidate's text when no voice followed it. */
  private queueFinal(sessionId: string, session: Session, speech: Int16Array, candidate: Candidate | undefined): void {
    const transcribe = this.transcribe as UtteranceTranscriber;
    const rate = session.vad.inputRate;
    // A final tells when its speech ended, so whoever hears it can time the recogniser and the whole turn.
    const timing: UtteranceTiming = { speech_ended_at: session.endedAt, voiced_at: session.voicedAt, utterance: session.utterance };
    const heard = candidate ? candidate.text.catch(() => transcribe(speech, rate)) : undefined;
    session.transcribing = session.transcribing.then(async () => {
      try {
        const text = (await (heard ?? transcribe(speech, rate))).trim();
        if (text !== '') session.events.push(liveEvent('TRANSCRIPT', { text, isFinal: true, metadata: { ...timing } }));
      } catch (error) {
        this.logger.warn({ err: error, session: sessionId }, 'transcribing an utterance failed');
        session.events.push(liveEvent('ERROR', { detail: error instanceof Error ? error.message : String(error) }));
      } finally {
        session.finalsDone += 1;
      }
    });
  }

  /** A partial transcript of the utterance so far, sent only between the previous utterance's final and its own. */
  private startPartial(session: Session, speech: Int16Array): void {
    const transcribe = this.transcribe as UtteranceTranscriber;
    const utterance = session.utterance;
    session.partial = (async () => {
      try {
        const text = (await transcribe(speech, session.vad.inputRate)).trim();
        if (text !== '' && session.finalsDone === utterance - 1 && !session.candidate) session.events.push(liveEvent('TRANSCRIPT', { text, isFinal: false }));
      } catch {
        // A failed partial is only a missed hint; the final of the utterance still comes.
      } finally {
        session.partial = undefined;
      }
    })();
  }
}

/** LIVE_VAD_ANTICIPATE_MS in frames; 0 when it is off or would not come before the end. */
function candidateFrames(config: ConfigStore): number {
  const frames = Math.round(config.get('LIVE_VAD_ANTICIPATE_MS') / FRAME_MS);
  return frames > 2 && frames < Math.round(config.get('LIVE_VAD_SILENCE_MS') / FRAME_MS) ? frames : 0;
}

/** The utterance less the silence that ended it, but for two frames (recognisers do better without a long tail). */
function withoutTrailingSilence(utterance: Int16Array, silentFrames: number, frameSamples: number): Int16Array {
  return utterance.subarray(0, Math.max(0, utterance.length - (silentFrames - 2) * frameSamples));
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
