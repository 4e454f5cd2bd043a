import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { EngineFactory } from '../engine-registry.ts';
import { AurisError, SPEECH_16K, type AurisEngine } from './contract.ts';
import { grammarWords, writeGrammarDictionary } from './grammar-dictionary.ts';
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
    const prepared = grammar ? new GrammarFiles(grammar) : undefined;
    return {
      input: SPEECH_16K,
      setup() {
        const missing = models.flatMap(([, model]) => [model.hmm, model.dict]).filter((path) => !existsSync(path));
        if (missing.length > 0)
          throw new AurisError('engine_unavailable', `pocketsphinx model files are missing: ${missing.join(', ')} (Debian package pocketsphinx-en-us)`);
      },
      teardown: () => prepared?.remove(),
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
        const args = ['-infile', path, '-logfn', '/dev/null', '-hmm', choice.model.hmm];
        if (prepared) {
          const files = await prepared.for(choice.model.dict);
          args.push('-dict', files.dict, '-jsgf', files.grammar);
        } else args.push('-dict', choice.model.dict, ...(choice.model.lm ? ['-lm', choice.model.lm] : []));
        const output = await run(options.program, args, options.timeout_seconds, signal);
        return output
          .split('\n')
          .map((line) => line.trim())
          .filter((line) => line !== '')
          .join(' ');
      },
    };
  };
}

/** The grammar's file and, per model dictionary, the dictionary cut down to its words: written once, kept until teardown. */
class GrammarFiles {
  private folder: Promise<string> | undefined;
  private readonly dictionaries = new Map<string, Promise<{ grammar: string; dict: string }>>();
  private written = 0;

  constructor(private readonly grammar: string) {}

  for(dictionary: string): Promise<{ grammar: string; dict: string }> {
    let files = this.dictionaries.get(dictionary);
    if (!files) {
      files = this.write(dictionary);
      // A failed write is tried again by the next utterance.
      files.catch(() => this.dictionaries.delete(dictionary));
      this.dictionaries.set(dictionary, files);
    }
    return files;
  }

  async remove(): Promise<void> {
    const folder = await this.folder?.catch(() => undefined);
    if (folder) await rm(folder, { recursive: true, force: true });
  }

  private async write(dictionary: string): Promise<{ grammar: string; dict: string }> {
    this.folder ??= mkdtemp(join(tmpdir(), 'anima-jsgf-')).then(async (folder) => {
      await writeFile(join(folder, 'grammar.gram'), this.grammar);
      return folder;
    });
    const folder = await this.folder;
    const dict = join(folder, `${this.written++}.dict`);
    const cut = await writeGrammarDictionary(dictionary, grammarWords(this.grammar), dict);
    return { grammar: join(folder, 'grammar.gram'), dict: cut ? dict : dictionary };
  }
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
