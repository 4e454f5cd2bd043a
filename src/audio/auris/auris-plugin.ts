import { stat } from 'node:fs/promises';
import type { Clock } from '../../body/clock.ts';
import { linkedSignal } from '../../chain/linked-signal.ts';
import type { Logger } from '../../logging.ts';
import { UnknownEngineError, type EngineRegistry } from '../engine-registry.ts';
import { AurisError, type AurisEngine } from './contract.ts';
import { convertForEngine, hasAudioStream } from './convert.ts';

/** Longest a transcription may take before it is abandoned. */
const TRANSCRIBE_TIMEOUT_MS = 120_000;

/**
 * AurisPlugin: the only way to turn an audio file into text (spec: all transcription goes through
 * transcribe_audio; nothing calls an STT back end directly).
 */
export class AurisPlugin {
  constructor(
    private readonly engines: EngineRegistry<AurisEngine>,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  get enabled(): boolean {
    return this.engines.activeName() !== undefined;
  }

  /**
   * transcribe_audio(path, mime_type?, engine_name?): the transcript ("" for silence). Throws AurisError
   * for every expected problem (disabled, unknown engine, missing file, not audio, engine unavailable),
   * so callers can answer clearly; never crashes on bad input.
   */
  async transcribeAudio(path: string, mimeType?: string, engineName?: string): Promise<string> {
    const name = engineName ?? this.engines.activeName();
    if (name === undefined) throw new AurisError('disabled', 'Speech-to-text is disabled (ACTIVE_AURIS_ENGINE)');
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) throw new AurisError('not_found', `No audio file at ${path}`);
    const engine = await this.engines.get(name).catch((error: unknown) => {
      if (error instanceof UnknownEngineError) throw new AurisError('unknown_engine', error.message);
      if (error instanceof AurisError) throw error;
      throw new AurisError('engine_unavailable', `The ${name} engine could not start: ${error instanceof Error ? error.message : String(error)}`);
    });
    const deadline = linkedSignal([], {
      ms: TRANSCRIBE_TIMEOUT_MS,
      reason: () => new Error(`no transcript within ${TRANSCRIBE_TIMEOUT_MS / 1000} s`),
      clock: this.clock,
    });
    const { signal } = deadline;
    const converted = engine.input
      ? await convertForEngine(path, engine.input, signal).catch((error: unknown) => {
          deadline.dispose();
          throw error;
        })
      : undefined;
    try {
      if (!converted && !(await hasAudioStream(path))) throw new AurisError('not_audio', 'The file is not audio (ffprobe found no audio stream)');
      const text = await engine.transcribe(converted?.path ?? path, converted ? 'audio/wav' : mimeType, { signal });
      const transcript = (text ?? '').replace(/\s+/g, ' ').trim();
      this.logger.debug({ engine: name, characters: transcript.length }, 'transcribed');
      return transcript;
    } catch (error) {
      if (error instanceof AurisError) throw error;
      throw new AurisError('failed', `The ${name} engine failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      deadline.dispose();
      await converted?.dispose();
    }
  }
}
