import type { EngineLifecycle } from '../engine-registry.ts';

/**
 * LiveEvent of the spec, fields renamed to camelCase:
 * type (TRANSCRIPT | AUDIO | VAD | ERROR), text, audio, is_final → isFinal, vad_signal → vadSignal,
 * detail, metadata.
 */
export interface LiveEvent {
  type: 'TRANSCRIPT' | 'AUDIO' | 'VAD' | 'ERROR';
  text: string | null;
  /** Synthesised audio (a WAV file's bytes). */
  audio: Uint8Array | null;
  isFinal: boolean;
  vadSignal: 'speech_start' | 'speech_end' | null;
  detail: string | null;
  metadata: Record<string, unknown>;
}

/**
 * What a final TRANSCRIPT's metadata may tell about its utterance (performance.now() values): when the
 * engine decided the speech had ended, and when the last voiced audio arrived (the person stopped).
 */
export interface UtteranceTiming {
  speech_ended_at?: number;
  voiced_at?: number;
  /** The utterance's number in its session, from 1: an end candidate and the final of one utterance share it. */
  utterance?: number;
}

export function liveEvent(type: LiveEvent['type'], fields: Partial<Omit<LiveEvent, 'type'>> = {}): LiveEvent {
  return { type, text: null, audio: null, isFinal: false, vadSignal: null, detail: null, metadata: {}, ...fields };
}

export interface OpenSessionOptions {
  /** Of the PCM the client sends (16-bit mono); the spec's live input default is 16000. */
  sampleRate: number;
  /**
   * Voiced audio in a row, in ms, before speech_start (engines may ignore it). A session bound to a
   * conversation that may be speaking asks for more than a click's worth, so residual echo of the
   * assistant's own voice does not interrupt it.
   */
  minSpeechMs?: number;
  /**
   * Offer end candidates (engines may ignore it): when the speaker pauses for LIVE_VAD_ANTICIPATE_MS, the
   * utterance so far comes as a partial with `metadata.end_candidate: true`, withdrawn by a partial with
   * `end_candidate: false` if voice comes back. A conversation can start answering it ahead.
   */
  anticipate?: boolean;
}

/**
 * A Live (bidirectional streaming) engine. Spec names beside ours:
 *
 * | spec                                        | here                                  |
 * |---------------------------------------------|---------------------------------------|
 * | supports_input / supports_output            | `supportsInput` / `supportsOutput`    |
 * | open_session(session_id, **kwargs)          | `openSession(sessionId, options)`     |
 * | close_session(session_id)                   | `closeSession(sessionId)`             |
 * | receive_events(session_id) (async iterator) | `receiveEvents(sessionId)`            |
 * | send_audio(session_id, chunk, sample_rate)  | `sendAudio(sessionId, chunk)`         |
 * | send_text(session_id, text)                 | `sendText(sessionId, text)`           |
 * | setup() / teardown()                        | `setup()` / `teardown()`              |
 *
 * receiveEvents ends when the session is closed. sendAudio takes the rate given at open.
 */
export interface LiveEngine extends EngineLifecycle {
  readonly supportsInput: boolean;
  readonly supportsOutput: boolean;
  openSession(sessionId: string, options: OpenSessionOptions): Promise<void>;
  closeSession(sessionId: string): Promise<void>;
  receiveEvents(sessionId: string): AsyncIterable<LiveEvent>;
  sendAudio?(sessionId: string, chunk: Uint8Array): Promise<void>;
  sendText?(sessionId: string, text: string): Promise<void>;
}
