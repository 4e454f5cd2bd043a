import type { Clock, TimerHandle } from '../../body/clock.ts';
import type { ConfigStore } from '../../config/store.ts';
import type { Logger } from '../../logging.ts';
import type { EngineRegistry } from '../engine-registry.ts';
import { languageHint } from '../language-detect.ts';
import { estimateLipsync, LipsyncSchema, type Lipsync, withVisemes } from '../lipsync.ts';
import { cleanSpeechText } from '../speech-text.ts';
import { decodeWav, durationSeconds, firstChannel, isWav, wrapPcm, type Pcm16 } from '../wav.ts';
import { DEFAULT_SAMPLE_RATE, type VoxEngine } from './contract.ts';
import { chooseEngine } from './engine-choice.ts';
import type { SpeechFiles } from './output-files.ts';
import { type SpeakingBody, SpeechSchedule } from './speech-schedule.ts';
import type { SpeechOutlet, SpeechOutlets, SpokenAudio } from './outlets.ts';

/** speak(text, interface_path, emotion, engine_name?, merged_text?) as one object. */
export interface SpeakRequest {
  text: string;
  interfacePath: string;
  emotion?: string | undefined;
  /** engine_name: an explicit engine; language overrides then do not apply. */
  engine?: string | undefined;
  /** merged_text: the caption of the audio message, and the text sent when speech fails. */
  mergedText?: string | undefined;
  /** Defaults to the first segment of the path. */
  interfaceId?: string | undefined;
  /**
   * `send` (default): on failure Vox sends the text itself when VOX_FALLBACK_TO_TEXT is true. `caller`:
   * the caller does it (the message chain, which runs the message action and records it in history).
   */
  textFallback?: 'send' | 'caller';
}

export interface SpeakResult {
  status: 'success' | 'skipped' | 'error';
  filename: string | null;
  url?: string;
  engine?: string;
  language?: string | undefined;
  audio_duration_s?: number;
  lipsync?: Lipsync | null;
  /** The interface got the audio (false: no outlet reached the conversation; the body still speaks). */
  delivered?: boolean;
  /** Why it was skipped or failed. */
  detail?: string;
  /** success: false; otherwise whether the text went out instead (or should, with textFallback caller). */
  fallback_text?: boolean;
  /** Time spent in the engine's generate, for the benchmark's overhead figure. */
  engine_ms?: number;
}

/** A piece of speech ready to play, neither delivered nor on the body yet (VoxPlugin.prepare). */
export interface PreparedSpeech {
  url: string;
  path: string;
  filename: string;
  wav: Uint8Array;
  durationS: number;
  lipsync: Lipsync;
  engine: string;
  language: string | undefined;
  /** Time spent in the engine's generate. */
  engineMs: number;
}

export interface VoxDependencies {
  engines: EngineRegistry<VoxEngine>;
  config: ConfigStore;
  /** VOX_TIMEOUT_SECONDS runs on it. */
  clock: Clock;
  files: SpeechFiles;
  outlets: SpeechOutlets;
  body: SpeakingBody | undefined;
  logger: Logger;
}

class SpeechFailure extends Error {}

/** VoxPlugin: owns the text-to-speech pipeline from text to audio in the conversation. */
export class VoxPlugin {
  constructor(private readonly deps: VoxDependencies) {}

  get enabled(): boolean {
    return this.deps.engines.activeName() !== undefined;
  }

  /** Where speech goes, by interface id; interfaces and the chain adapter register here. */
  get outlets(): SpeechOutlets {
    return this.deps.outlets;
  }

  async speak(request: SpeakRequest): Promise<SpeakResult> {
    const { logger } = this.deps;
    const text = cleanSpeechText(request.text);
    const caption = request.mergedText ?? request.text;
    if (text === '') return this.failed(request, caption, 'skipped', 'nothing to say once emoji and spaces are removed');
    const { language, choice, engineName } = this.choose(text, request.engine);
    if (engineName === undefined) return this.failed(request, caption, 'skipped', 'Vox is disabled (ACTIVE_VOX_ENGINE)');
    try {
      const piece = await this.render(text, request.emotion, engineName, { language, voice: choice.voice, model: choice.model });
      const { url, path, wav, durationS, lipsync } = piece;
      this.deps.body?.speak({ url, durationS, lipsync });
      const audio: SpokenAudio = { interfacePath: request.interfacePath, url, path, wav, durationS, lipsync, text: caption };
      const delivered = await this.deliver(request, (outlet) => outlet.audio(audio));
      logger.debug({ engine: engineName, language, reason: choice.reason, file: piece.filename, duration_s: durationS }, 'speech ready');
      return {
        status: 'success',
        filename: piece.filename,
        url,
        engine: engineName,
        language,
        audio_duration_s: durationS,
        lipsync,
        delivered,
        fallback_text: false,
        engine_ms: piece.engineMs,
      };
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      logger.warn({ engine: engineName, interface_path: request.interfacePath, detail }, 'speech generation failed');
      return { ...(await this.failed(request, caption, 'error', detail)), engine: engineName, language };
    }
  }

  /**
   * One piece of speech (a sentence of a streamed reply) made ready: its file and visemes, with the active
   * engine or a language override. Nothing is delivered and the body does not move: the caller schedules
   * both (a SpeechSchedule). Throws when there is nothing to say, Vox is off or the engine fails.
   */
  async prepare(request: { text: string; emotion?: string | undefined }): Promise<PreparedSpeech> {
    const text = cleanSpeechText(request.text);
    if (text === '') throw new SpeechFailure('nothing to say once emoji and spaces are removed');
    const { language, choice, engineName } = this.choose(text, undefined);
    if (engineName === undefined) throw new SpeechFailure('Vox is disabled (ACTIVE_VOX_ENGINE)');
    return this.render(text, request.emotion, engineName, { language, voice: choice.voice, model: choice.model });
  }

  /** A new utterance's timeline: its pieces go on the body one after another, on the process's (the body's) clock. */
  schedule(): SpeechSchedule {
    return new SpeechSchedule(this.deps.clock, this.deps.body);
  }

  /** Text to a WAV file in VOX_OUTPUT_DIR with its lip-sync (the engine's, else estimated from the samples). */
  private async render(
    text: string,
    emotion: string | undefined,
    engineName: string,
    hints: { language?: string | undefined; voice?: string | undefined; model?: string | undefined },
  ): Promise<PreparedSpeech> {
    const engine = await this.deps.engines.get(engineName);
    const started = performance.now();
    const bytes = await this.generate(engine, text, emotion, hints);
    const engineMs = performance.now() - started;
    const { wav, pcm } = normalise(bytes, engine);
    const durationS = round(durationSeconds(pcm));
    if (durationS === 0) throw new SpeechFailure('the engine returned no samples');
    const file = await this.deps.files.write(wav);
    const lipsync = engineLipsync(engine, bytes) ?? estimateLipsync(firstChannel(pcm), pcm.sampleRate);
    void this.deps.files.sweep().catch((error: unknown) => this.deps.logger.warn({ err: error }, 'cleaning old speech files failed'));
    return { url: file.url, path: file.path, filename: file.filename, wav, durationS, lipsync, engine: engineName, language: hints.language, engineMs };
  }

  /** Speech for no conversation (the radio's banter): a WAV file in VOX_OUTPUT_DIR, no body, no delivery. */
  async synthesize(request: { text: string; engine?: string | undefined }): Promise<{ path: string; durationS: number }> {
    const text = cleanSpeechText(request.text);
    if (text === '') throw new SpeechFailure('nothing to say once emoji and spaces are removed');
    const { language, choice, engineName } = this.choose(text, request.engine);
    if (engineName === undefined) throw new SpeechFailure('Vox is disabled (ACTIVE_VOX_ENGINE)');
    const engine = await this.deps.engines.get(engineName);
    const { wav, pcm } = normalise(await this.generate(engine, text, undefined, { language, voice: choice.voice, model: choice.model }), engine);
    const durationS = round(durationSeconds(pcm));
    if (durationS === 0) throw new SpeechFailure('the engine returned no samples');
    return { path: (await this.deps.files.write(wav)).path, durationS };
  }

  /** The engine for `text`: the explicit one, else a language override, else the active engine. */
  private choose(text: string, explicit: string | undefined) {
    const language = languageHint(text);
    const choice = chooseEngine(explicit, language, this.deps.config.get('VOX_LANGUAGE_OVERRIDES'));
    return { language, choice, engineName: choice.engine ?? this.deps.engines.activeName() };
  }

  /** generate_tts within VOX_TIMEOUT_SECONDS: a hanging engine is aborted and abandoned. */
  private async generate(
    engine: VoxEngine,
    text: string,
    emotion: string | undefined,
    hints: { language?: string | undefined; voice?: string | undefined; model?: string | undefined },
  ): Promise<Uint8Array> {
    const timeoutS = this.deps.config.get('VOX_TIMEOUT_SECONDS');
    const { clock } = this.deps;
    const controller = new AbortController();
    let timer: TimerHandle;
    const deadline = new Promise<never>((_, reject) => {
      timer = clock.setTimeout(() => {
        controller.abort(new Error('timeout'));
        reject(new SpeechFailure(`the engine did not answer within VOX_TIMEOUT_SECONDS (${timeoutS} s)`));
      }, timeoutS * 1000);
    });
    const request = { signal: controller.signal, ...definedOnly(hints) };
    try {
      const bytes = await Promise.race([engine.generate(text, emotion, request), deadline]);
      if (!bytes || bytes.byteLength === 0) throw new SpeechFailure('the engine returned no audio');
      return bytes;
    } finally {
      clock.clearTimeout(timer);
    }
  }

  private async failed(request: SpeakRequest, caption: string, status: 'skipped' | 'error', detail: string): Promise<SpeakResult> {
    const wanted = this.deps.config.get('VOX_FALLBACK_TO_TEXT') && caption.trim() !== '';
    if (!wanted) return { status, filename: null, detail, fallback_text: false };
    if (request.textFallback === 'caller') return { status, filename: null, detail, fallback_text: true };
    const sent = await this.deliver(request, (outlet) => outlet.text(request.interfacePath, caption));
    return { status, filename: null, detail, fallback_text: sent };
  }

  private async deliver(request: SpeakRequest, send: (outlet: SpeechOutlet) => Promise<boolean>): Promise<boolean> {
    const interfaceId = request.interfaceId ?? request.interfacePath.split('/')[0] ?? '';
    const outlet = this.deps.outlets.for(interfaceId);
    if (!outlet) return false;
    try {
      return await send(outlet);
    } catch (error) {
      this.deps.logger.warn({ err: error, interface_path: request.interfacePath }, 'delivering speech failed');
      return false;
    }
  }
}

/** The engine's bytes as a WAV file plus samples: WAV is kept as is, raw PCM gets a header. */
function normalise(bytes: Uint8Array, engine: VoxEngine): { wav: Uint8Array; pcm: Pcm16 } {
  const wav = isWav(bytes) ? bytes : wrapPcm(bytes, engine.sampleRate ?? DEFAULT_SAMPLE_RATE, engine.channels ?? 1);
  try {
    return { wav, pcm: decodeWav(wav) };
  } catch (error) {
    throw new SpeechFailure(`the engine returned unreadable audio: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** get_lipsync_data, when the engine has it and it answers the contract's shape (visemes added if it has letters only). */
function engineLipsync(engine: VoxEngine, bytes: Uint8Array): Lipsync | undefined {
  try {
    const parsed = LipsyncSchema.safeParse(engine.lipsync?.(bytes));
    return parsed.success ? withVisemes(parsed.data) : undefined;
  } catch {
    return undefined;
  }
}

function definedOnly<T extends object>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined && entry !== '')) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

const round = (value: number) => Math.round(value * 1000) / 1000;
