import { z } from 'zod';

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
  | 'system';

export interface VariableDefinition<T = unknown> {
  group: VariableGroup;
  type: VariableType;
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

type Options = Pick<VariableDefinition, 'group' | 'description' | 'restart' | 'environmentOnly'>;

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off', '']);

const booleanSchema = z.string().transform((raw, ctx) => {
  const word = raw.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  ctx.addIssue({ code: 'custom', message: 'expected true/false, 1/0, yes/no or on/off' });
  return z.NEVER;
});

function numberSchema(integer: boolean, min?: number, max?: number) {
  let target = integer ? z.number().int() : z.number();
  if (min !== undefined) target = target.min(min);
  if (max !== undefined) target = target.max(max);
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

export function integer(
  defaultValue: number,
  options: Options & { min?: number; max?: number },
): VariableDefinition<number> {
  const { min, max, ...rest } = options;
  return { ...rest, type: 'integer', default: String(defaultValue), schema: numberSchema(true, min, max) };
}

export function decimal(
  defaultValue: number,
  options: Options & { min?: number; max?: number },
): VariableDefinition<number> {
  const { min, max, ...rest } = options;
  return { ...rest, type: 'number', default: String(defaultValue), schema: numberSchema(false, min, max) };
}

export function flag(defaultValue: boolean, options: Options): VariableDefinition<boolean> {
  return { ...options, type: 'boolean', default: String(defaultValue), schema: booleanSchema };
}

export function choice<const C extends readonly [string, ...string[]]>(
  choices: C,
  defaultValue: C[number],
  options: Options,
): VariableDefinition<C[number]> {
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
      try {
        return JSON.parse(raw.trim() === '' ? defaultValue : raw) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'expected valid JSON' });
        return z.NEVER;
      }
    })
    .pipe(shape);
  return { ...options, type: 'json', default: defaultValue, schema };
}

/** A path to a file that can be uploaded and downloaded through the configuration endpoints. */
export function file(options: Options): VariableDefinition<string> {
  return { ...options, type: 'file', default: '', schema: z.string() };
}
