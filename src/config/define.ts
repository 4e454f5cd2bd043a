import { z } from 'zod';
import { MAX_JSON_DEPTH, withinJsonDepth } from './json-depth.ts';

/**
 * Every variable is held as its raw, environment-style string and parsed by its own zod schema, so the
 * same rules apply to defaults, `.env`, the process environment and entries saved through the API.
 */
export type VariableType = 'string' | 'integer' | 'number' | 'boolean' | 'json' | 'enum' | 'file' | 'list';

export type VariableGroup =
  | 'server'
  | 'database'
  | 'storage'
  | 'history'
  | 'attention'
  | 'avatar'
  | 'cortex'
  | 'compat'
  | 'radio'
  | 'audio'
  | 'http_tts'
  | 'platforms'
  | 'memory'
  | 'system';

/** Each group's title on the configuration page. */
export const GROUP_LABELS: Readonly<Record<VariableGroup, string>> = {
  server: 'Server and access',
  database: 'Database',
  storage: 'Folders',
  history: 'Chat history',
  attention: 'Chat attention and limits',
  avatar: 'Avatar',
  cortex: 'Language model',
  compat: 'Ollama-compatible API',
  radio: 'Radio',
  audio: 'Voice and speech',
  http_tts: 'HTTP speech server',
  platforms: 'Chat platforms',
  memory: 'Memory',
  system: 'Persona and system',
};

export interface VariableDefinition<T = unknown> {
  group: VariableGroup;
  type: VariableType;
  /** Human name on the configuration page; `labelOf` derives one from the variable's name when absent. */
  label?: string;
  description: string;
  /** Raw default, as it would be written in `.env`. */
  default: string;
  schema: z.ZodType<T>;
  /** Only read at start: a change is stored but applies after a restart. */
  restart?: boolean;
  /** Never saved through the API (it locates the store itself). */
  environmentOnly?: boolean;
  /** Allowed values of an enum, shown by the configuration editor. */
  choices?: readonly string[];
}

const SECRET_SUFFIXES = ['_KEY', '_TOKEN', '_PASSWORD', '_SECRET', '_HASH'];

/** The contract's rule: a name ending in one of these suffixes is a secret and is never returned in clear. */
export function isSecretKey(key: string): boolean {
  return SECRET_SUFFIXES.some((suffix) => key.endsWith(suffix));
}

type Options = Pick<VariableDefinition, 'group' | 'label' | 'description' | 'restart' | 'environmentOnly'>;

/** Words of a variable name that are not written in lower case, and units that read better after it. */
const NAME_WORDS: Readonly<Record<string, string>> = {
  API: 'API',
  AURIS: 'Auris',
  CERT: 'certificate',
  CORS: 'CORS',
  CORTEX: 'Cortex',
  DIR: 'folder',
  HTTP: 'HTTP',
  HTTPS: 'HTTPS',
  ID: 'ID',
  IDS: 'IDs',
  JSON: 'JSON',
  LID: 'LID',
  OPENAI: 'OpenAI',
  STT: 'STT',
  TLS: 'TLS',
  TTL: 'TTL',
  TTS: 'TTS',
  URL: 'URL',
  VOX: 'Vox',
  WAV: 'WAV',
  WEBUI: 'web UI',
};
const NAME_UNITS: Readonly<Record<string, string>> = { S: 'seconds', SECONDS: 'seconds', MS: 'ms', BYTES: 'bytes', DAYS: 'days', DB: 'dB' };

/**
 * A readable name for a variable without a label: `LOGGING_LEVEL` is "Logging level", `OPENAI_TIMEOUT_S`
 * "OpenAI timeout (seconds)". The `APP_` prefix names the web app every server setting belongs to anyway.
 */
export function readableName(key: string): string {
  const words = key.replace(/^APP_/, '').split('_').filter(Boolean);
  const last = words.at(-1) ?? '';
  const unit = words.length > 1 ? NAME_UNITS[last] : undefined;
  const named = (unit ? words.slice(0, -1) : words).map((word) => NAME_WORDS[word] ?? word.toLowerCase()).join(' ');
  const text = unit ? `${named} (${unit})` : named;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function labelOf(key: string, definition: VariableDefinition): string {
  return definition.label ?? readableName(key);
}

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off', '']);

const booleanSchema = z.string().transform((raw, ctx) => {
  const word = raw.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  ctx.addIssue({ code: 'custom', message: 'expected true/false, 1/0, yes/no or on/off' });
  return z.NEVER;
});

interface Bounds {
  min?: number;
  max?: number;
  /** Said instead of zod's generic "too big" when the reason for `max` is not obvious. */
  maxMessage?: string;
}

function numberSchema(integer: boolean, { min, max, maxMessage }: Bounds) {
  let target = integer ? z.number().int() : z.number();
  if (min !== undefined) target = target.min(min);
  if (max !== undefined) target = target.max(max, maxMessage);
  return z
    .string()
    .trim()
    .refine((raw) => raw !== '' && Number.isFinite(Number(raw)), { message: 'expected a number' })
    .transform(Number)
    .pipe(target);
}

export function text(defaultValue: string, options: Options): VariableDefinition<string> {
  return { ...options, type: 'string', default: defaultValue, schema: z.string() };
}

export function integer(defaultValue: number, options: Options & Bounds): VariableDefinition<number> {
  const { min, max, maxMessage, ...rest } = options;
  return { ...rest, type: 'integer', default: String(defaultValue), schema: numberSchema(true, { min, max, maxMessage }) };
}

export function decimal(defaultValue: number, options: Options & Bounds): VariableDefinition<number> {
  const { min, max, maxMessage, ...rest } = options;
  return { ...rest, type: 'number', default: String(defaultValue), schema: numberSchema(false, { min, max, maxMessage }) };
}

/**
 * Whole seconds a Node timer can wait: a longer delay (over 2^31 - 1 ms) fires after 1 ms instead, which
 * turns a generous timeout into an instant failure and an interval into a busy loop.
 */
export const MAX_TIMER_SECONDS = Math.floor(2_147_483_647 / 1000);

/** A duration in seconds (`whole` for an integer variable), bounded so that it still fits a timer in ms. */
export function seconds(defaultValue: number, options: Options & { min?: number; whole?: boolean }): VariableDefinition<number> {
  const { whole, ...rest } = options;
  const bounded = { ...rest, max: MAX_TIMER_SECONDS, maxMessage: `at most ${MAX_TIMER_SECONDS} seconds (about 24.8 days), the longest a timer can wait` };
  return whole ? integer(defaultValue, bounded) : decimal(defaultValue, bounded);
}

export function flag(defaultValue: boolean, options: Options): VariableDefinition<boolean> {
  return { ...options, type: 'boolean', default: String(defaultValue), schema: booleanSchema };
}

export function choice<const C extends readonly [string, ...string[]]>(choices: C, defaultValue: C[number], options: Options): VariableDefinition<C[number]> {
  return { ...options, type: 'enum', default: defaultValue, choices, schema: z.string().trim().pipe(z.enum(choices)) };
}

/** Comma-separated list; blanks and surrounding spaces are dropped. */
export function list(defaultValue: string, options: Options): VariableDefinition<string[]> {
  const schema = z.string().transform((raw) =>
    raw
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== ''),
  );
  return { ...options, type: 'list', default: defaultValue, schema };
}

/** A JSON-valued variable: the text must parse and match `shape`; a bad value is refused on write. */
export function json<T>(defaultValue: string, shape: z.ZodType<T>, options: Options): VariableDefinition<T> {
  const schema = z
    .string()
    .transform((raw, ctx) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw.trim() === '' ? defaultValue : raw);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'expected valid JSON' });
        return z.NEVER;
      }
      if (!withinJsonDepth(parsed)) {
        ctx.addIssue({ code: 'custom', message: `nested deeper than ${MAX_JSON_DEPTH} levels` });
        return z.NEVER;
      }
      return parsed;
    })
    .pipe(shape);
  return { ...options, type: 'json', default: defaultValue, schema };
}

/** A path to a file that can be uploaded and downloaded through the configuration endpoints. */
export function file(options: Options): VariableDefinition<string> {
  return { ...options, type: 'file', default: '', schema: z.string() };
}
