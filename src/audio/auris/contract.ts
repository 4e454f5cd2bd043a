import type { EngineLifecycle } from '../engine-registry.ts';

/** The audio an engine wants; Auris converts every input file to it with ffmpeg first. */
export interface AurisInput {
  sampleRate: number;
  channels: 1 | 2;
}

export interface TranscribeOptions {
  /** Ends the work at the caller's deadline or at shutdown. */
  signal: AbortSignal;
}

/**
 * An Auris (speech-to-text, file based) engine. Spec names beside ours:
 *
 * | spec                                  | here                                   |
 * |---------------------------------------|----------------------------------------|
 * | transcribe(file_path, mime_type)      | `transcribe(path, mimeType, options)`  |
 * | → string or none                      | → string or undefined ("" = silence)   |
 * | setup() / teardown()                  | `setup()` / `teardown()`               |
 *
 * `path` is already converted to `input` (a 16-bit PCM WAV file) when the engine declares one.
 */
export interface AurisEngine extends EngineLifecycle {
  readonly input?: AurisInput;
  transcribe(path: string, mimeType: string | undefined, options: TranscribeOptions): Promise<string | undefined>;
}

/** What transcribe_audio throws for a problem the caller can act on; `code` is stable. */
export class AurisError extends Error {
  constructor(
    readonly code: 'disabled' | 'unknown_engine' | 'not_found' | 'not_audio' | 'engine_unavailable' | 'failed',
    message: string,
  ) {
    super(message);
    this.name = 'AurisError';
  }
}

/** The usual input of offline recognisers (Vosk, pocketsphinx). */
export const SPEECH_16K: AurisInput = { sampleRate: 16000, channels: 1 };
