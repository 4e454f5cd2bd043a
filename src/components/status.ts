import { z } from 'zod';
import type { ComponentEntry, ComponentRegistry } from './registry.ts';

export interface ActionView {
  type: string;
  brief: string;
  schema: unknown;
  examples: unknown[];
  instructions: string | null;
}

export interface ComponentView {
  name: string;
  kind: string;
  status: 'loaded' | 'FAILED' | 'stopped';
  reason: string | null;
  /** The "in development" badge. */
  dev: boolean;
  builtin: boolean;
  description: string | null;
  interface_id: string | null;
  engine_kind: string | null;
  runnable: boolean;
  actions: ActionView[];
  /** required_config_vars as declared: strings (AND) and arrays (OR groups). */
  required_config: Array<string | string[]>;
  missing_config: string[][];
  /** The latest connection report of a component that holds one (a chat platform), else null. */
  connection: { state: string; detail: string | null; since: string } | null;
}

function jsonSchema(schema: z.ZodType): unknown {
  try {
    return z.toJSONSchema(schema, { unrepresentable: 'any' });
  } catch {
    return {};
  }
}

export function actionView(type: string, spec: { schema: z.ZodType; brief: string; examples?: unknown[]; instructions?: string }): ActionView {
  return { type, brief: spec.brief, schema: jsonSchema(spec.schema), examples: spec.examples ?? [], instructions: spec.instructions ?? null };
}

export function componentView(entry: ComponentEntry): ComponentView {
  const definition = entry.definition;
  return {
    name: entry.name,
    kind: entry.kind,
    // Still starting: neither loaded nor failed yet.
    status: entry.status === 'discovered' ? 'stopped' : entry.status,
    reason: entry.reason,
    dev: entry.dev,
    builtin: entry.builtin,
    description: definition?.description ?? null,
    interface_id: definition?.kind === 'interface' ? definition.interfaceId : null,
    engine_kind: definition?.kind === 'cortex' ? definition.engineKind : null,
    runnable: typeof entry.instance?.run === 'function',
    actions: Object.entries(entry.instance?.actions ?? {}).map(([type, spec]) => actionView(type, spec)),
    required_config: (definition?.requiredConfig ?? []).map((item) => (typeof item === 'string' ? item : [...item])),
    missing_config: entry.missing,
    connection: entry.connection && { state: entry.connection.state, detail: entry.connection.detail ?? null, since: entry.connection.since.toISOString() },
  };
}

function count(entries: ComponentEntry[]) {
  return {
    total: entries.length,
    loaded: entries.filter((entry) => entry.status === 'loaded').length,
    failed: entries.filter((entry) => entry.status === 'FAILED').length,
    stopped: entries.filter((entry) => entry.status === 'stopped' || entry.status === 'discovered').length,
  };
}

export interface LlmState {
  /** The engine answering now, or null (the chain then answers with the notice). */
  active: string | null;
  configured: string;
  notice: string | null;
}

/** GET /api/components: `{llm, interfaces, plugins, summary, dev_components_enabled}`. */
export function componentsStatus(registry: ComponentRegistry, llm: LlmState, devEnabled: boolean) {
  const engines = registry.list('cortex');
  return {
    llm: { ...llm, engines: engines.map((entry) => ({ ...componentView(entry), active: entry.name === llm.active })) },
    interfaces: registry.list('interface').map(componentView),
    plugins: registry.list('plugin').map(componentView),
    summary: { interfaces: count(registry.list('interface')), plugins: count(registry.list('plugin')), cortex: count(engines) },
    dev_components_enabled: devEnabled,
  };
}
