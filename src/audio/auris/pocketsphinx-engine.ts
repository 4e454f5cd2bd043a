import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { EngineFactory } from '../engine-registry.ts';
import { AurisError, SPEECH_16K, type AurisEngine } from './contract.ts';
import { chooseLocalModel, type LanguageIdentifier } from './local-language.ts';

export const POCKETSPHINX_ENGINE = 'pocketsphinx';

const ModelSchema = z.object({ hmm: z.string(), dict: z.string(), lm: z.string().optional() });
type PocketsphinxModel = z.infer<typeof ModelSchema>;

/** Debian's pocketsphinx-en-us model. */
const DEBIAN_EN_US: PocketsphinxModel = {
  hmm: '/usr/share/pocketsphinx/model/en-us/en-us',
  dict: '/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict',
  lm: '/usr/share/pocketsphinx/model/en-us/en-us.lm.bin',
};

/** AURIS_ENGINE_SETTINGS keys of this engine. */
export const PocketsphinxSettingsSchema = z.looseObject({
  /** The program (Debian: pocketsphinx_continuous, package pocketsphinx). */
  program: z.string().default('pocketsphinx_continuous'),
  /** Language code → model files; defaults to Debian's en-us model. */
  models: z.record(z.string(), ModelSchema).optional(),
  /** A JSGF grammar: recognition is limited to it, and exact for the phrases it allows. */
  grammar: z.string().optional(),
  /** Or a plain phrase list, turned into a one-rule grammar. */
  phrases: z.array(z.string().min(1)).optional(),
  timeout_seconds: z.number().positive().default(60),
});

/** A one-rule JSGF grammar accepting exactly these phrases (lower case, punctuation dropped). */
export function phrasesToJsgf(phrases: string[]): string {
  const words = phrases
    .map((phrase) =>
      phrase
        .toLowerCase()
        .replace(/[^\p{L}\p{N}' ]+/gu, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((phrase) => phrase !== '');
  return `#JSGF V1.0;\ngrammar phrases;\npublic <phrase> = ${words.join(' | ')};\n`;
}

/**
 * pocketsphinx through Debian's command-line program: offline, English out of the box. Free dictation of
 * synthetic voices is poor; with a grammar or phrase list it is exact, which suits command phrases.
 */
export function createPocketsphinxEngine(identify?: LanguageIdentifier): EngineFactory<AurisEngine> {
  return ({ settings, config, logger }) => {
    const options = PocketsphinxSettingsSchema.parse(settings);
    const models = Object.entries(options.models ?? { 'en-us': DEBIAN_EN_US });
    const grammar = options.grammar ?? (options.phrases ? phrasesToJsgf(options.phrases) : undefined);
    return {
      input: SPEECH_16K,
      setup() {
        const missing = models.flatMap(([, model]) => [model.hmm, model.dict]).filter((path) => !existsSync(path));
        if (missing.length > 0)
          throw new AurisError('engine_unavailable', `pocketsphinx model files are missing: ${missing.join(', ')} (Debian package pocketsphinx-en-us)`);
      },
      async transcribe(path, _mime, { signal }) {
        const choice = await chooseLocalModel({
          models,
          setting: config.get('STT_LOCAL_LANGUAGE'),
          minConfidence: config.get('STT_LOCAL_LID_CONFIDENCE'),
          wavPath: path,
          identify,
          logger,
        });
        if (!choice) throw new AurisError('engine_unavailable', 'no pocketsphinx model is configured');
        const directory = grammar ? await mkdtemp(join(tmpdir(), 'anima-jsgf-')) : undefined;
        try {
          const args = ['-infile', path, '-logfn', '/dev/null', '-hmm', choice.model.hmm, '-dict', choice.model.dict];
          if (directory && grammar) {
            await writeFile(join(directory, 'grammar.gram'), grammar);
            args.push('-jsgf', join(directory, 'grammar.gram'));
          } else if (choice.model.lm) args.push('-lm', choice.model.lm);
          const output = await run(options.program, args, options.timeout_seconds, signal);
          return output
            .split('\n')
            .map((line) => line.trim())
            .filter((line) => line !== '')
            .join(' ');
        } finally {
          if (directory) await rm(directory, { recursive: true, force: true });
        }
      },
    };
  };
}

function run(program: string, args: string[], timeoutSeconds: number, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(program, args, { timeout: timeoutSeconds * 1000, signal, maxBuffer: 4 * 1_048_576 }, (error, stdout) => {
      if (!error) return resolve(stdout);
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      reject(
        new AurisError(
          missing ? 'engine_unavailable' : 'failed',
          missing ? `${program} is not installed (Debian package pocketsphinx)` : `${program} failed: ${error.message.split('\n')[0]}`,
        ),
      );
    });
  });
}
