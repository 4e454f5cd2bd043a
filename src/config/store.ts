import { EventEmitter } from 'node:events';
import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';
import { findVariable, variables, type ConfigValues, type VariableKey } from './schema.ts';

export type ConfigSource = 'default' | 'env_file' | 'environment' | 'override';
type LayerName = Exclude<ConfigSource, 'default'>;

/**
 * The longest value saved through the API: every variable fits with room to spare, and the database
 * column (MySQL TEXT, 65,535 bytes) always takes it, so an oversize value is a 400, never a driver error.
 */
export const MAX_SAVED_VALUE_BYTES = 16_384;

/** Later layers win. */
const LAYER_ORDER: readonly LayerName[] = ['override', 'environment', 'env_file'];

export interface ConfigChange {
  key: string;
  value: unknown;
  previous: unknown;
}

/** Where entries saved through the API live (the `config_entries` table). */
export interface OverrideStore {
  load(): Promise<Record<string, string>>;
  save(key: string, value: string): Promise<void>;
  remove(key: string): Promise<void>;
}

export interface InvalidVariable {
  key: string;
  source: ConfigSource;
  issues: z.core.$ZodIssue[];
}

/** A saved entry kept in the store but not applied, with the reason shown to the user. */
export interface IgnoredEntry {
  value: string;
  reason: string;
}

/** Thrown at start when `.env` or the environment holds a value its variable does not accept. */
export class InvalidConfigurationError extends Error {
  constructor(readonly invalid: InvalidVariable[]) {
    super(
      `Invalid configuration: ${invalid.map((entry) => `${entry.key} (${entry.source}): ${entry.issues.map((issue) => issue.message).join('; ')}`).join(', ')}`,
    );
    this.name = 'InvalidConfigurationError';
  }
}

/** Thrown by `set` for a key that is no variable of Anima. */
export class UnknownVariableError extends Error {
  constructor(readonly key: string) {
    super(`Unknown configuration variable: ${key}`);
    this.name = 'UnknownVariableError';
  }
}

/** Thrown by `set` for a value the variable does not accept; nothing is stored. */
export class InvalidValueError extends Error {
  constructor(
    readonly key: string,
    readonly issues: z.core.$ZodIssue[] | string,
  ) {
    super(typeof issues === 'string' ? issues : `Invalid value for ${key}: ${issues.map((issue) => issue.message).join('; ')}`);
    this.name = 'InvalidValueError';
  }
}

function invalidReason(environmentOnly: boolean, issues: z.core.$ZodIssue[]): string {
  if (environmentOnly) return 'read from the environment or .env only';
  return `no longer valid: ${issues.map((issue) => issue.message).join('; ')}`;
}

/** Keeps only the variables Anima knows, with aliases folded onto their target unless it is set too. */
function selectKnown(record: Record<string, string | undefined>): Record<string, string> {
  const selected: Record<string, string> = {};
  for (const [name, value] of Object.entries(record)) {
    if (value === undefined) continue;
    const found = findVariable(name);
    if (!found) continue;
    const isAlias = found.key !== name;
    if (isAlias && record[found.key] !== undefined) continue;
    selected[found.key] = value;
  }
  return selected;
}

/**
 * The one typed configuration of the process. Values are kept raw per layer and parsed on every change,
 * so each read is a map lookup.
 */
export class ConfigStore extends EventEmitter<{ change: [ConfigChange] }> {
  private readonly layers: Record<LayerName, Record<string, string>>;
  private readonly parsed = new Map<string, unknown>();
  private overrideStore: OverrideStore | undefined;
  /** Saved entries not applied (they stay stored until the user saves or resets them), by key. */
  private readonly ignored = new Map<string, IgnoredEntry>();
  /** Saved entries to leave out when they are attached, with the reason (a start they made fail). */
  private readonly setAside = new Map<string, string>();

  private constructor(envFile: Record<string, string>, environment: Record<string, string>) {
    super();
    // Every service that applies changes at run time follows this one store; a leak shows far above that.
    this.setMaxListeners(100);
    this.layers = { env_file: envFile, environment, override: {} };
  }

  /** Builds the configuration from `.env` content and the process environment; throws on bad values. */
  static fromSources(sources: { envFile?: Record<string, string>; environment?: Record<string, string | undefined> }): ConfigStore {
    const store = new ConfigStore(selectKnown(sources.envFile ?? {}), selectKnown(sources.environment ?? {}));
    const invalid = store.reparseAll();
    if (invalid.length > 0) throw new InvalidConfigurationError(invalid);
    return store;
  }

  /**
   * Leaves the saved entry of `key` out when the saved entries are attached: it made a start fail. It
   * stays stored, and is reported by `ignoredEntry` until the user saves or resets it.
   */
  setAsideSaved(key: string, reason: string): void {
    this.setAside.set(key, reason);
  }

  /**
   * Adds the entries saved through the API. A saved entry that no longer validates (the variable changed
   * since) is skipped and returned so the caller can log it; it never stops the start. Skipped and set-aside
   * entries are reported by `ignoredEntry`.
   */
  async attachOverrides(store: OverrideStore): Promise<InvalidVariable[]> {
    this.overrideStore = store;
    const saved = await store.load();
    const invalid: InvalidVariable[] = [];
    for (const [key, value] of Object.entries(selectKnown(saved))) {
      const setAsideReason = this.setAside.get(key);
      if (setAsideReason !== undefined) {
        this.ignored.set(key, { value, reason: setAsideReason });
        continue;
      }
      const found = findVariable(key);
      const result = found?.definition.schema.safeParse(value);
      if (!found || found.definition.environmentOnly || !result?.success) {
        const issues = result?.success === false ? result.error.issues : [];
        invalid.push({ key, source: 'override', issues });
        this.ignored.set(key, { value, reason: invalidReason(found?.definition.environmentOnly === true, issues) });
        continue;
      }
      this.layers.override[key] = value;
    }
    this.reparseAll();
    return invalid;
  }

  /** The saved entry of `key` when it is stored but not applied, with why. */
  ignoredEntry(key: string): IgnoredEntry | undefined {
    return this.ignored.get(key);
  }

  get<K extends VariableKey>(key: K): ConfigValues[K] {
    return this.parsed.get(key) as ConfigValues[K];
  }

  /** The configured voice of an engine (`<ENGINE>_VOICE`), or '' for its default. */
  voiceOf(engine: string): string {
    const key = `${engine.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_VOICE`;
    return this.rawValue(key) ?? '';
  }

  /** The effective raw text of a variable, as `.env` would hold it. */
  rawValue(key: string): string | undefined {
    for (const layer of LAYER_ORDER) {
      const value = this.layers[layer][key];
      if (value !== undefined) return value;
    }
    return findVariable(key)?.definition.default;
  }

  sourceOf(key: string): ConfigSource {
    return LAYER_ORDER.find((layer) => this.layers[layer][key] !== undefined) ?? 'default';
  }

  /** Every key with a value: the declared variables plus any engine voice set in some layer. */
  keys(): string[] {
    const extra = LAYER_ORDER.flatMap((layer) => Object.keys(this.layers[layer])).filter((key) => !(key in variables));
    return [...Object.keys(variables), ...new Set(extra)];
  }

  /**
   * Validates, persists and applies one entry; `null` removes the saved entry so the lower layers apply
   * again. Emits `change` when the effective value changed. Returns the canonical key.
   */
  async set(key: string, raw: string | null): Promise<string> {
    const found = findVariable(key);
    if (!found) throw new UnknownVariableError(key);
    const canonical = found.key;
    if (found.definition.environmentOnly) {
      throw new InvalidValueError(canonical, `${canonical} is read from the environment or .env only; it cannot be saved through the API`);
    }
    if (raw !== null) {
      if (Buffer.byteLength(raw) > MAX_SAVED_VALUE_BYTES) throw new InvalidValueError(canonical, `${canonical} is longer than ${MAX_SAVED_VALUE_BYTES} bytes`);
      const result = found.definition.schema.safeParse(raw);
      if (!result.success) throw new InvalidValueError(canonical, result.error.issues);
    }
    if (raw === null) {
      await this.overrideStore?.remove(canonical);
      delete this.layers.override[canonical];
    } else {
      await this.overrideStore?.save(canonical, raw);
      this.layers.override[canonical] = raw;
    }
    this.ignored.delete(canonical);
    this.setAside.delete(canonical);
    this.reparse(canonical);
    return canonical;
  }

  private reparseAll(): InvalidVariable[] {
    const invalid: InvalidVariable[] = [];
    for (const key of this.keys()) {
      const issue = this.reparse(key);
      if (issue) invalid.push(issue);
    }
    return invalid;
  }

  private reparse(key: string): InvalidVariable | undefined {
    const found = findVariable(key);
    if (!found) return undefined;
    const result = found.definition.schema.safeParse(this.rawValue(key));
    if (!result.success) return { key, source: this.sourceOf(key), issues: result.error.issues };
    const previous = this.parsed.get(key);
    const hadValue = this.parsed.has(key);
    this.parsed.set(key, result.data);
    if (hadValue && !isDeepStrictEqual(previous, result.data)) {
      this.emit('change', { key, value: result.data, previous });
    }
    return undefined;
  }
}
