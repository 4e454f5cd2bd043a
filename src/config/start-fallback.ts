import { LISTENER_PORTS } from './ports.ts';
import { variables, type VariableKey } from './schema.ts';
import type { ConfigStore } from './store.ts';

/** A start-up step failed because of the values of `keys` (a listener's host or port, its TLS files). */
export class StartStepError extends Error {
  constructor(
    readonly keys: readonly VariableKey[],
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'StartStepError';
  }
}

/** Runs one start-up step; whatever it throws is blamed on `keys` (unless a finer step already named its own). */
export async function blaming<T>(keys: readonly VariableKey[], step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof StartStepError) throw error;
    throw new StartStepError(keys, error instanceof Error ? error.message : String(error), { cause: error });
  }
}

/** The variables of the listeners: their failures are always named by a step, so nothing else blames them. */
const LISTENER_KEYS: readonly VariableKey[] = [...LISTENER_PORTS, 'APP_WEBUI_HOST', 'COMPAT_HOST', 'APP_WEBUI_TLS_CERT', 'APP_WEBUI_TLS_KEY'];

/** Read only at start (folders, body limit, session mode): a start failure that no step names may be theirs. */
const START_ONLY_KEYS = (Object.keys(variables) as VariableKey[]).filter((key) => variables[key].restart === true && !LISTENER_KEYS.includes(key));

/**
 * The saved entries to set aside after `error` stopped a start: those of the step that failed or, for a
 * failure no step names, every saved entry read only at start except the listeners' (kept, so that a
 * remote operator can still reach the page that shows what was set aside). Values from .env or the
 * environment are the operator's own and are never set aside: such a failure stops the start as before.
 */
export function savedEntriesToBlame(config: ConfigStore, error: unknown): VariableKey[] {
  const suspects = error instanceof StartStepError ? error.keys : START_ONLY_KEYS;
  return suspects.filter((key) => config.sourceOf(key) === 'override');
}
