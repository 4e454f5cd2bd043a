import { pathToFileURL } from 'node:url';
import type { Clock } from '../body/clock.ts';
import type { ConfigChange, ConfigStore } from '../config/store.ts';
import type { Logger } from '../logging.ts';

/** Capabilities an engine declares at registration, for example {local: true, streaming: false}. */
export type Capabilities = Record<string, boolean>;

/** What every engine of the three registries may implement: the spec's optional setup() and teardown(). */
export interface EngineLifecycle {
  setup?(): Promise<void> | void;
  teardown?(): Promise<void> | void;
}

/** What an engine is built with: the subsystem's settings JSON (forwarded at load), config and a logger. */
export interface EngineContext {
  settings: Record<string, unknown>;
  config: ConfigStore;
  logger: Logger;
  /** The process's clock, for an engine's own deadlines. */
  clock: Clock;
}

export type EngineFactory<E> = (context: EngineContext) => E | Promise<E>;

/**
 * The spec's "module path": a factory, or a module specifier whose default export is one, imported when
 * the engine is first used (so an engine with heavy dependencies costs nothing until chosen).
 */
export type EngineSource<E> = EngineFactory<E> | string;

export class UnknownEngineError extends Error {
  constructor(
    readonly kind: string,
    readonly engine: string,
  ) {
    super(`Unknown ${kind} engine: ${engine}`);
    this.name = 'UnknownEngineError';
  }
}

export const DISABLED = 'disabled';

interface Registration<E> {
  name: string;
  source: EngineSource<E>;
  capabilities: Capabilities;
}

export interface RegistryOptions {
  /** Auris, Vox or Live: used in messages. */
  kind: string;
  config: ConfigStore;
  logger: Logger;
  /** Handed to each engine it builds. */
  clock: Clock;
  /** The variable naming the active engine (ACTIVE_VOX_ENGINE ...). */
  activeKey: 'ACTIVE_AURIS_ENGINE' | 'ACTIVE_VOX_ENGINE' | 'LIVE_CORTEX';
  /** The variable holding the settings JSON, when the subsystem has one. */
  settingsKey?: 'AURIS_ENGINE_SETTINGS' | 'VOX_ENGINE_SETTINGS';
}

/**
 * One of the three engine registries. Engines register by name (aliases point at the same entry) and are
 * built on first use, set up once and cached. Changing the active engine or the settings tears the
 * loaded engines down; they are rebuilt with the new values on next use (the hot switch).
 */
export class EngineRegistry<E extends EngineLifecycle> {
  private readonly entries = new Map<string, Registration<E>>();
  private readonly aliases = new Map<string, string>();
  private readonly loaded = new Map<string, Promise<E>>();
  private readonly logger: Logger;
  private readonly onChange = (change: ConfigChange) => {
    if (change.key !== this.options.activeKey && change.key !== this.options.settingsKey) return;
    this.logger.info({ key: change.key }, `${this.options.kind} configuration changed; reloading engines`);
    void this.unloadAll();
  };

  constructor(private readonly options: RegistryOptions) {
    this.logger = options.logger.child({ component: `audio:${options.kind.toLowerCase()}` });
    options.config.on('change', this.onChange);
  }

  /** register_*_engine(name, module, capabilities); a later registration of a name replaces it. */
  register(name: string, source: EngineSource<E>, capabilities: Capabilities = {}, aliases: string[] = []): void {
    const key = name.toLowerCase();
    if (this.loaded.has(key)) void this.unload(key);
    this.entries.set(key, { name: key, source, capabilities });
    for (const alias of aliases) this.aliases.set(alias.toLowerCase(), key);
  }

  unregister(name: string): void {
    const key = this.resolve(name);
    if (!key) return;
    void this.unload(key);
    this.entries.delete(key);
    for (const [alias, target] of this.aliases) if (target === key) this.aliases.delete(alias);
  }

  /** The canonical name of a registered engine or alias. */
  resolve(name: string): string | undefined {
    const key = name.trim().toLowerCase();
    if (this.entries.has(key)) return key;
    return this.aliases.get(key);
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  capabilities(name: string): Capabilities | undefined {
    const key = this.resolve(name);
    return key ? this.entries.get(key)?.capabilities : undefined;
  }

  /** The configured active engine name as written, or undefined when the subsystem is disabled. */
  activeName(): string | undefined {
    const name = String(this.options.config.get(this.options.activeKey)).trim();
    return name === '' || name.toLowerCase() === DISABLED ? undefined : name;
  }

  /** The engine by name (the active one without a name); throws UnknownEngineError. */
  get(name?: string): Promise<E> {
    const wanted = name ?? this.activeName();
    if (wanted === undefined) return Promise.reject(new UnknownEngineError(this.options.kind, DISABLED));
    const key = this.resolve(wanted);
    const entry = key ? this.entries.get(key) : undefined;
    if (!key || !entry) return Promise.reject(new UnknownEngineError(this.options.kind, wanted));
    let engine = this.loaded.get(key);
    if (!engine) {
      engine = this.load(entry);
      this.loaded.set(key, engine);
      // A failed load is not cached: the next call tries again (the model may have been installed since).
      engine.catch(() => this.loaded.get(key) === engine && this.loaded.delete(key));
    }
    return engine;
  }

  async stop(): Promise<void> {
    this.options.config.off('change', this.onChange);
    await this.unloadAll();
  }

  private async load(entry: Registration<E>): Promise<E> {
    const factory = typeof entry.source === 'string' ? await importFactory<E>(entry.source) : entry.source;
    const settings = this.options.settingsKey ? (this.options.config.get(this.options.settingsKey) as Record<string, unknown>) : {};
    const engine = await factory({ settings, config: this.options.config, clock: this.options.clock, logger: this.logger.child({ engine: entry.name }) });
    await engine.setup?.();
    this.logger.info({ engine: entry.name }, `${this.options.kind} engine ready`);
    return engine;
  }

  private async unloadAll(): Promise<void> {
    await Promise.all([...this.loaded.keys()].map((key) => this.unload(key)));
  }

  private async unload(key: string): Promise<void> {
    const engine = this.loaded.get(key);
    this.loaded.delete(key);
    try {
      await (await engine)?.teardown?.();
    } catch (error) {
      this.logger.warn({ err: error, engine: key }, 'engine teardown failed');
    }
  }
}

async function importFactory<E>(specifier: string): Promise<EngineFactory<E>> {
  const url = specifier.startsWith('.') || specifier.startsWith('/') ? pathToFileURL(specifier).href : specifier;
  const module = (await import(url)) as { default?: unknown };
  if (typeof module.default !== 'function') throw new Error(`${specifier} must default-export an engine factory`);
  return module.default as EngineFactory<E>;
}
