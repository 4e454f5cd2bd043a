import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../body/clock.ts';
import { linkedSignal } from '../../chain/linked-signal.ts';
import type { Logger } from '../../logging.ts';
import { UnknownEngineError, type EngineRegistry } from '../engine-registry.ts';
import { AurisError, type AurisEngine } from './contract.ts';
import { convertForEngine, hasAudioStream } from './convert.ts';
import { wrapPcm } from '../wav.ts';

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
    const { name, engine } = await this.engine(engineName);
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) throw new AurisError('not_found', `No audio file at ${path}`);
    return this.run(name, async (signal) => {
      const converted = engine.input ? await convertForEngine(path, engine.input, signal) : undefined;
      try {
        if (!converted && !(await hasAudioStream(path))) throw new AurisError('not_audio', 'The file is not audio (ffprobe found no audio stream)');
        return await engine.transcribe(converted?.path ?? path, converted ? 'audio/wav' : mimeType, { signal });
      } finally {
        await converted?.dispose();
      }
    });
  }

  /**
   * transcribe_audio for audio already in memory (16-bit mono PCM, a live utterance), with the active
   * engine. PCM at the engine's own rate goes to it as a WAV file as it is: no probe and no conversion,
   * which would cost more than a short utterance's recognition.
   */
  async transcribePcm(pcm: Int16Array, sampleRate: number): Promise<string> {
    const { name, engine } = await this.engine(undefined);
    const directory = await mkdtemp(join(tmpdir(), 'anima-pcm-'));
    try {
      const path = join(directory, 'utterance.wav');
      await writeFile(path, wrapPcm(new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength), sampleRate));
      const asItIs = engine.input?.channels === 1 && engine.input.sampleRate === sampleRate;
      if (!asItIs) return await this.transcribeAudio(path, 'audio/wav', name);
      return await this.run(name, (signal) => engine.transcribe(path, 'audio/wav', { signal }));
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }

  private async engine(engineName: string | undefined): Promise<{ name: string; engine: AurisEngine }> {
    const name = engineName ?? this.engines.activeName();
    if (name === undefined) throw new AurisError('disabled', 'Speech-to-text is disabled (ACTIVE_AURIS_ENGINE)');
    const engine = await this.engines.get(name).catch((error: unknown) => {
      if (error instanceof UnknownEngineError) throw new AurisError('unknown_engine', error.message);
      if (error instanceof AurisError) throw error;
      throw new AurisError('engine_unavailable', `The ${name} engine could not start: ${error instanceof Error ? error.message : String(error)}`);
    });
    return { name, engine };
  }

  /** One recognition under the transcription deadline; the engine's text, whitespace tidied. */
  private async run(name: string, recognise: (signal: AbortSignal) => Promise<string | undefined>): Promise<string> {
    const deadline = linkedSignal([], {
      ms: TRANSCRIBE_TIMEOUT_MS,
      reason: () => new Error(`no transcript within ${TRANSCRIBE_TIMEOUT_MS / 1000} s`),
      clock: this.clock,
    });
    try {
      const transcript = ((await recognise(deadline.signal)) ?? '').replace(/\s+/g, ' ').trim();
      this.logger.debug({ engine: name, characters: transcript.length }, 'transcribed');
      return transcript;
    } catch (error) {
      if (error instanceof AurisError) throw error;
      throw new AurisError('failed', `The ${name} engine failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      deadline.dispose();
    }
  }
}
