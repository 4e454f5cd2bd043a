import { pathToFileURL } from 'node:url';
import type { ConfigChange, ConfigStore } from '../config/store.ts';
import type { Logger } from '../logging.ts';
import type {
  ActionSpec,
  ComponentContext,
  ComponentDefinition,
  ComponentInstance,
  ComponentKind,
  ConfigPort,
  ConnectionReport,
  CortexInstance,
  HostServices,
  InterfaceDefinition,
  ServiceName,
} from './contract.ts';
import type { DiscoveredComponent } from './discovery.ts';
import { missingConfig, missingConfigReason, requiredKeys } from './gating.ts';

/** `discovered` only while loading; `stopped` after shutdown. */
export type ComponentStatus = 'discovered' | 'loaded' | 'FAILED' | 'stopped';

export interface ComponentEntry {
  name: string;
  kind: ComponentKind;
  dev: boolean;
  builtin: boolean;
  definition: ComponentDefinition | undefined;
  instance: ComponentInstance | undefined;
  status: ComponentStatus;
  reason: string | null;
  /** The unmet OR groups while gated by configuration. */
  missing: string[][];
  /** The latest connection report of a component that holds one, with when it came. */
  connection: (ConnectionReport & { since: Date }) | null;
  /** What its context registered (configuration listeners, `onStop` work): released when it stops. */
  disposers: Array<() => void | Promise<void>>;
}

export interface OwnedAction {
  type: string;
  spec: ActionSpec;
  entry: ComponentEntry;
}

export interface RegistryOptions {
  config: ConfigStore;
  logger: Logger;
  paths: { cwd: string; backups: string };
  /** The services components may declare in `needs`; asked for when a component is created. */
  services(): HostServices;
}

const KINDS: readonly ComponentKind[] = ['interface', 'plugin', 'cortex'];

function isDefinition(value: unknown): value is ComponentDefinition {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { kind?: unknown; create?: unknown };
  return typeof candidate.create === 'function' && KINDS.includes(candidate.kind as ComponentKind);
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

const sameItems = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((item, index) => item === b[index]);

/**
 * The component registry: loads what discovery found (a component that throws is FAILED and skipped,
 * never fatal), gates each on its configuration, loads gated ones when their variables are set, and
 * stops everything in reverse start order.
 */
export class ComponentRegistry {
  private readonly entries: ComponentEntry[] = [];
  /** Started components, in start order, so shutdown runs backwards. */
  private readonly started: ComponentEntry[] = [];
  private readonly logger: Logger;
  private readonly onConfigChange = (change: ConfigChange) => void this.retryGated(change.key);
  /** The last answer of actions() and what it was made of: every message asks twice, the components rarely change. */
  private ownedActions: { owners: ComponentEntry[]; sources: unknown[]; owned: ReadonlyMap<string, OwnedAction> } | undefined;

  constructor(private readonly options: RegistryOptions) {
    this.logger = options.logger.child({ component: 'components' });
    options.config.on('change', this.onConfigChange);
  }

  /** Built-in components (the integration interface) come first, then the discovered ones in order. */
  async loadAll(builtins: ComponentDefinition[], discovered: DiscoveredComponent[]): Promise<void> {
    for (const definition of builtins) await this.add(definition.name ?? definition.kind, definition.kind, false, true, async () => definition);
    for (const found of discovered) {
      await this.add(found.name, found.kind, found.dev, false, async () => ((await import(pathToFileURL(found.file).href)) as { default?: unknown }).default);
    }
  }

  list(kind?: ComponentKind): ComponentEntry[] {
    return kind === undefined ? [...this.entries] : this.entries.filter((entry) => entry.kind === kind);
  }

  find(name: string, kind?: ComponentKind): ComponentEntry | undefined {
    return this.entries.find((entry) => entry.name === name && (kind === undefined || entry.kind === kind));
  }

  active(kind?: ComponentKind): ComponentEntry[] {
    return this.list(kind).filter((entry) => entry.status === 'loaded');
  }

  /** The interface with this interface id, whatever its status. */
  interfaceEntry(interfaceId: string): ComponentEntry | undefined {
    return this.list('interface').find((entry) => (entry.definition as InterfaceDefinition | undefined)?.interfaceId === interfaceId);
  }

  /** The cortex engine instance of a loaded engine. */
  engine(name: string): CortexInstance | undefined {
    const entry = this.find(name, 'cortex');
    return entry?.status === 'loaded' ? (entry.instance as CortexInstance | undefined) : undefined;
  }

  /** Every action of the loaded interfaces and plugins; the first owner of a type wins. */
  actions(): ReadonlyMap<string, OwnedAction> {
    const owners = this.active().filter((entry) => entry.kind !== 'cortex');
    const sources = owners.map((entry) => entry.instance?.actions);
    const last = this.ownedActions;
    if (last && sameItems(last.owners, owners) && sameItems(last.sources, sources)) return last.owned;
    const owned = new Map<string, OwnedAction>();
    for (const entry of owners) {
      for (const [type, spec] of Object.entries(entry.instance?.actions ?? {})) {
        if (!owned.has(type)) owned.set(type, { type, spec, entry });
      }
    }
    this.ownedActions = { owners, sources, owned };
    return owned;
  }

  /** Stops the started components in reverse order; one failing stop never stops the others. */
  async stopAll(): Promise<void> {
    this.options.config.off('change', this.onConfigChange);
    for (const entry of this.started.splice(0).reverse()) {
      try {
        await entry.instance?.stop?.();
      } catch (error) {
        this.logger.error({ err: error, name: entry.name }, 'a component failed to stop');
      }
      await this.release(entry);
      entry.status = 'stopped';
    }
  }

  private async add(name: string, kind: ComponentKind, dev: boolean, builtin: boolean, load: () => Promise<unknown>): Promise<void> {
    const entry: ComponentEntry = {
      name,
      kind,
      dev,
      builtin,
      definition: undefined,
      instance: undefined,
      status: 'discovered',
      reason: null,
      missing: [],
      connection: null,
      disposers: [],
    };
    if (this.find(name, kind)) {
      this.entries.push({ ...entry, status: 'FAILED', reason: `Another ${kind} is already named ${name}` });
      return;
    }
    this.entries.push(entry);
    try {
      const definition = await load();
      if (!isDefinition(definition)) throw new Error('index.ts must default-export a component definition (defineInterface, definePlugin or defineCortex)');
      if (definition.kind !== kind) throw new Error(`found a ${definition.kind} definition in the ${kind} folder`);
      entry.definition = definition;
      entry.instance = await definition.create(this.contextOf(entry, definition.needs ?? []));
    } catch (error) {
      this.fail(entry, `Failed to load: ${message(error)}`, error);
      return;
    }
    await this.startIfConfigured(entry);
  }

  private async startIfConfigured(entry: ComponentEntry): Promise<void> {
    entry.missing = missingConfig(entry.definition?.requiredConfig, (key) => this.options.config.rawValue(key));
    if (entry.missing.length > 0) {
      entry.status = 'FAILED';
      entry.reason = missingConfigReason(entry.missing);
      // Optional components wait for their settings; that is their normal state, not a fault to warn about every start.
      this.logger.info({ name: entry.name, kind: entry.kind }, entry.reason);
      return;
    }
    // Marked at once, so two configuration changes arriving together never start it twice.
    entry.status = 'discovered';
    try {
      await entry.instance?.start?.();
    } catch (error) {
      this.fail(entry, `Failed to start: ${message(error)}`, error);
      await this.release(entry);
      return;
    }
    entry.status = 'loaded';
    entry.reason = null;
    this.started.push(entry);
    this.logger.info({ name: entry.name, kind: entry.kind, dev: entry.dev }, 'component loaded');
  }

  /** The context of one component: its declared services only, and listeners that end with it. */
  private contextOf(entry: ComponentEntry, needs: readonly string[]): ComponentContext {
    const host = this.options.services();
    const unknown = needs.filter((need) => !Object.hasOwn(host, need));
    if (unknown.length > 0) throw new Error(`needs ${unknown.join(', ')}, which the host does not provide`);
    // Only the declared services: the definition's `needs` type lets `create` see no others either.
    const services = Object.fromEntries(needs.map((need) => [need, host[need as ServiceName]])) as unknown as HostServices;
    return {
      name: entry.name,
      config: this.configPort(entry),
      logger: this.options.logger.child({ component: `${entry.kind}:${entry.name}` }),
      paths: this.options.paths,
      services,
      onStop: (dispose) => void entry.disposers.push(dispose),
      reportConnection: (report) => {
        // A connection closing after its component stopped has nothing left to report.
        if (entry.status !== 'loaded' && entry.status !== 'discovered') return;
        if (entry.connection?.state !== report.state) this.options.logger.info({ name: entry.name, ...report }, `${entry.name} ${report.state}`);
        entry.connection = { ...report, since: new Date() };
      },
    };
  }

  private configPort(entry: ComponentEntry): ConfigPort {
    const { config } = this.options;
    return {
      get: (key) => config.get(key),
      raw: (key) => config.rawValue(key),
      onChange: (keys, listener) => {
        const wanted = new Set(keys);
        const onChange = (change: ConfigChange) => {
          if (wanted.has(change.key)) listener(change);
        };
        config.on('change', onChange);
        entry.disposers.push(() => void config.off('change', onChange));
      },
    };
  }

  /** Runs what the component's context registered, newest first; one failing never stops the others. */
  private async release(entry: ComponentEntry): Promise<void> {
    entry.connection = null;
    for (const dispose of entry.disposers.splice(0).reverse()) {
      try {
        await dispose();
      } catch (error) {
        this.logger.error({ err: error, name: entry.name }, 'releasing a component failed');
      }
    }
  }

  private fail(entry: ComponentEntry, reason: string, error: unknown): void {
    entry.status = 'FAILED';
    entry.reason = reason;
    this.logger.error({ err: error, name: entry.name, kind: entry.kind }, reason);
  }

  /** Hot load: a gated component starts as soon as the variables it waited for are set. */
  private async retryGated(key: string): Promise<void> {
    for (const entry of this.entries) {
      if (entry.status !== 'FAILED' || entry.missing.length === 0 || entry.definition?.hotLoad === false) continue;
      if (!requiredKeys(entry.definition?.requiredConfig).has(key)) continue;
      await this.startIfConfigured(entry);
    }
  }
}
