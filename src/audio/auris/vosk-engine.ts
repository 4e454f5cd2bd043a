import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { EngineFactory } from '../engine-registry.ts';
import { decodeWav } from '../wav.ts';
import { AurisError, SPEECH_16K, type AurisEngine } from './contract.ts';
import { chooseLocalModel, type LanguageIdentifier } from './local-language.ts';

export const LOCAL_AURIS_ENGINE = 'local';
export const VOSK_ALIAS = 'vosk';

/** AURIS_ENGINE_SETTINGS keys of the local (Vosk) engine. */
export const VoskSettingsSchema = z.looseObject({
  /** One model directory (for example vosk-model-small-en-us-0.15); its language is `language` or en. */
  model_path: z.string().optional(),
  language: z.string().default('en'),
  /** Several models, language code → directory; the first is the fallback of STT_LOCAL_LANGUAGE=auto. */
  models: z.record(z.string(), z.string()).optional(),
  /** The npm package that binds libvosk (vosk-koffi loads the library the `vosk` tarball ships). */
  runtime: z.string().default('vosk-koffi'),
});

const MODEL_HINT = 'download one from https://alphacephei.com/vosk/models and set AURIS_ENGINE_SETTINGS to {"model_path": "<folder>"}';

interface VoskRuntime {
  Model: new (path: string) => { free(): void };
  Recognizer: new (options: {
    model: unknown;
    sampleRate: number;
  }) => { acceptWaveform(data: Buffer): boolean; finalResult(): { text?: string }; free(): void };
}

/** A folder Vosk can open: it holds the acoustic model (am/) or a model.conf (conf/). */
function isModelDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory() && (existsSync(`${path}/am`) || existsSync(`${path}/conf/model.conf`));
}

/**
 * The built-in local engine (spec alias `vosk`). It loads model folders named in its settings and says
 * clearly when none is installed; nothing is downloaded.
 */
export function createVoskEngine(identify?: LanguageIdentifier): EngineFactory<AurisEngine> {
  return ({ settings, config, logger }) => {
    const options = VoskSettingsSchema.parse(settings);
    const models = Object.entries(options.models ?? (options.model_path ? { [options.language]: options.model_path } : {}));
    let runtime: VoskRuntime | undefined;
    const opened = new Map<string, InstanceType<VoskRuntime['Model']>>();
    return {
      input: SPEECH_16K,
      async setup() {
        if (models.length === 0) throw new AurisError('engine_unavailable', `No Vosk model is installed: ${MODEL_HINT}`);
        const broken = models.filter(([, path]) => !isModelDirectory(path)).map(([, path]) => path);
        if (broken.length > 0) throw new AurisError('engine_unavailable', `Not a Vosk model folder: ${broken.join(', ')}; ${MODEL_HINT}`);
        try {
          const specifier = options.runtime;
          runtime = (await import(specifier)) as VoskRuntime;
        } catch {
          throw new AurisError('engine_unavailable', `The Vosk runtime (npm package ${options.runtime}) is not installed`);
        }
      },
      teardown() {
        for (const model of opened.values()) model.free();
        opened.clear();
      },
      async transcribe(path) {
        const choice = await chooseLocalModel({
          models,
          setting: config.get('STT_LOCAL_LANGUAGE'),
          minConfidence: config.get('STT_LOCAL_LID_CONFIDENCE'),
          wavPath: path,
          identify,
          logger,
        });
        if (!runtime || !choice) throw new AurisError('engine_unavailable', `No Vosk model is installed: ${MODEL_HINT}`);
        let model = opened.get(choice.model);
        if (!model) {
          model = new runtime.Model(choice.model);
          opened.set(choice.model, model);
        }
        const audio = decodeWav(await readFile(path));
        const recognizer = new runtime.Recognizer({ model, sampleRate: audio.sampleRate });
        try {
          recognizer.acceptWaveform(Buffer.from(audio.samples.buffer, audio.samples.byteOffset, audio.samples.byteLength));
          return recognizer.finalResult().text ?? '';
        } finally {
          recognizer.free();
        }
      },
    };
  };
}
