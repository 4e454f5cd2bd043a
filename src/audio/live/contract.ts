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

export function liveEvent(type: LiveEvent['type'], fields: Partial<Omit<LiveEvent, 'type'>> = {}): LiveEvent {
  return { type, text: null, audio: null, isFinal: false, vadSignal: null, detail: null, metadata: {}, ...fields };
}

export interface OpenSessionOptions {
  /** Of the PCM the client sends (16-bit mono); the spec's live input default is 16000. */
  sampleRate: number;
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
