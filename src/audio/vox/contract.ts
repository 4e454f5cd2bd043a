import type { EngineLifecycle } from '../engine-registry.ts';
import type { Lipsync } from '../lipsync.ts';

/** Per-call options; the spec's **kwargs of generate_tts. */
export interface VoxRequest {
  /** ISO-639-1 hint from language detection, when confident. */
  language?: string;
  /** An explicit voice (an override or the caller); otherwise the engine uses `<ENGINE>_VOICE`. */
  voice?: string;
  /** An explicit model (an override); otherwise VOX_DEFAULT_MODEL. */
  model?: string;
  /** Aborted at VOX_TIMEOUT_SECONDS: an engine doing I/O must stop then. */
  signal: AbortSignal;
}

/** Speaker metadata of GET /api/vox/speakers; the bundled local engine returns exactly these fields. */
export interface Speaker {
  code: string;
  name: string;
  language: string;
}

/**
 * A Vox (text-to-speech) engine. Spec names beside ours:
 *
 * | spec                                   | here                      |
 * |----------------------------------------|---------------------------|
 * | generate_tts(text, emotion, **kwargs)  | `generate(text, emotion, request)` → bytes or undefined |
 * | output_format (wav, default) / pcm     | `outputFormat`            |
 * | sample_rate (22050) / channels (1)     | `sampleRate` / `channels` (used to wrap pcm) |
 * | get_lipsync_data(audio_bytes)          | `lipsync(audio)`          |
 * | setup() / teardown()                   | `setup()` / `teardown()`  |
 *
 * Returning undefined (or throwing) is a failure and triggers the text fallback. The two listing methods
 * back the audio helper endpoints; an engine without `sample` has no samples (404 no_samples).
 */
export interface VoxEngine extends EngineLifecycle {
  readonly outputFormat?: 'wav' | 'pcm';
  readonly sampleRate?: number;
  readonly channels?: number;
  generate(text: string, emotion: string | undefined, request: VoxRequest): Promise<Uint8Array | undefined>;
  lipsync?(audio: Uint8Array): Lipsync | undefined;
  speakers?(): Promise<Speaker[]>;
  /** A short WAV of one speaker; throws UnknownSpeakerError for a code it does not know. */
  sample?(speaker: string): Promise<Uint8Array>;
}

export class UnknownSpeakerError extends Error {
  constructor(readonly speaker: string) {
    super(`Unknown speaker: ${speaker}`);
    this.name = 'UnknownSpeakerError';
  }
}

export const DEFAULT_SAMPLE_RATE = 22050;
