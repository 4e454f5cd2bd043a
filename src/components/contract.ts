import type { z } from 'zod';
import type { BodyServer } from '../body/body-server.ts';
import type { IncomingMessageInput } from '../chain/incoming.ts';
import type { SubmitOptions, SubmitResult } from '../chain/message-chain.ts';
import type { ConfigStore } from '../config/store.ts';
import type { Logger } from '../logging.ts';

/**
 * The one contract of the three component kinds. A component folder (`interface/<name>/index.ts`,
 * `plugins/<name>/index.ts`, `cortex/<name>/index.ts`) default-exports a definition made with
 * `defineInterface`, `definePlugin` or `defineCortex`. Spec names on the left, ours on the right:
 *
 * | spec                           | here                                              |
 * |--------------------------------|---------------------------------------------------|
 * | INTERFACE_CLASS / PLUGIN_CLASS | the default export (a definition)                 |
 * | get_interface_id()             | `interfaceId`                                     |
 * | get_supported_action_types()   | `Object.keys(instance.actions)`                   |
 * | get_supported_actions()        | `instance.actions` (zod schema, brief, examples)  |
 * | get_prompt_instructions(name)  | `instance.actions[name].instructions`             |
 * | validate_payload(type, p)      | `instance.validatePayload(type, p)` → errors      |
 * | required_config_vars           | `requiredConfig` (string = AND, array = OR group) |
 * | start / stop coroutines        | `instance.start()` / `instance.stop()`            |
 *
 * `create` runs at discovery for every component, gated or not, so it must only build objects; the
 * work (connections, timers) belongs in `start`, which runs only once the configuration is present.
 */
export type ComponentKind = 'interface' | 'plugin' | 'cortex';

/** required_config_vars: a string must be present (AND); an array needs one present member (OR). */
export type RequiredConfig = ReadonlyArray<string | readonly string[]>;

export interface ActionSpec {
  /** Validates the payload; its JSON schema is what the model and the status endpoint see. */
  schema: z.ZodType;
  brief: string;
  examples?: unknown[];
  /** get_prompt_instructions: extra text for the model about this action. */
  instructions?: string;
}

/** The message an action answers: who asked, where, and what the source attached. */
export interface ActionOrigin {
  interfaceId: string;
  interfacePath: string;
  messageId: string;
  senderId: string;
  metadata: Record<string, unknown>;
}

/** A route a component serves, framework-free; the HTTP layer adapts it (503 while the component is not loaded). */
export interface ComponentRoute {
  method: 'GET' | 'POST';
  /** Absolute, for example `/api/weather/current`. */
  path: string;
  summary: string;
  handle(input: { query: unknown; body: unknown }): Promise<RouteResult> | RouteResult;
  /** The answer while the component is not loaded; without it the route answers 503 with the reason. */
  unloaded?(reason: string): RouteResult;
}

export interface RouteResult {
  status?: number;
  body: unknown;
}

/** An error a component route throws for a client mistake; the HTTP layer keeps its status and code. */
export class ComponentRouteError extends Error {
  constructor(
    readonly statusCode: 400 | 404 | 409 | 503,
    readonly code: 'invalid_request' | 'not_found' | 'conflict' | 'unavailable',
    message: string,
  ) {
    super(message);
  }
}

/** How an interface hands a received message to the chain (validated there; a bad one throws). */
export interface ChainPort {
  submit(message: IncomingMessageInput, options?: SubmitOptions): Promise<SubmitResult>;
}

export interface OutboxPort {
  enqueue(source: string, message: { type: string; payload: Record<string, unknown>; metadata?: Record<string, unknown> }): Promise<number>;
}

export interface DiaryPort {
  write(entry: { text: string; interfacePath: string | null; tags: string[] }): Promise<number>;
}

/** What a component sees: configuration, its logger and the services it may use, nothing else. */
export interface ComponentContext {
  name: string;
  config: ConfigStore;
  logger: Logger;
  paths: { cwd: string; backups: string };
  chain: ChainPort;
  outbox: OutboxPort;
  diary: DiaryPort;
  body: BodyServer;
}

export interface ComponentInstance {
  actions?: Record<string, ActionSpec>;
  /** validate_payload: extra checks beyond the schema; each string is one error. */
  validatePayload?(actionType: string, payload: Record<string, unknown>): string[];
  handleAction?(actionType: string, payload: Record<string, unknown>, origin: ActionOrigin): Promise<void> | void;
  /** Text added to the system prompt while the component is active (the time, the weather). */
  promptContext?(): Promise<string | undefined> | string | undefined;
  routes?: ComponentRoute[];
  /** The "Run now" button; a component without it is not runnable. */
  run?(): Promise<unknown> | unknown;
  start?(): Promise<void> | void;
  stop?(): Promise<void> | void;
}

/** One turn of the conversation as the engine sees it. */
export interface ChatTurn {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Token counts as the engine's back end reports them. */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface CortexRequest {
  messages: ChatTurn[];
  interfacePath: string;
  /** Aborted on the chain's deadline, at shutdown, or when the asker goes away; the engine must stop promptly. */
  signal: AbortSignal;
  /** Engines whose back end counts tokens report the counts here, once the reply is complete. */
  onUsage?(usage: TokenUsage): void;
}

export interface CortexInstance extends ComponentInstance {
  /** Streams the reply as text deltas; throws on failure. */
  generate(request: CortexRequest): AsyncIterable<string>;
  /** Browser-automation engines open their login flow here. */
  login?(): Promise<{ message: string; url?: string }>;
}

interface DefinitionBase {
  /** Defaults to the folder name. */
  name?: string;
  description?: string;
  requiredConfig?: RequiredConfig;
  /** false: setting the missing variables at run time needs a restart instead of loading at once. */
  hotLoad?: boolean;
}

export interface InterfaceDefinition extends DefinitionBase {
  kind: 'interface';
  interfaceId: string;
  /** true: the interface drives transition_to itself; the chain sends no think/write/idle for it. */
  ownsAnimation?: boolean;
  /**
   * true: every sender already passed the process's trust check (loopback or APP_API_KEY), like the
   * operator's own tools, so the per-user chat rate limit does not apply to its messages.
   */
  trustedSenders?: boolean;
  create(context: ComponentContext): ComponentInstance | Promise<ComponentInstance>;
}

export interface PluginDefinition extends DefinitionBase {
  kind: 'plugin';
  create(context: ComponentContext): ComponentInstance | Promise<ComponentInstance>;
}

/** `engineKind` is the spec's engine `kind`: `chat` answers prompts, `live` runs streaming sessions. */
export interface CortexDefinition extends DefinitionBase {
  kind: 'cortex';
  engineKind: 'chat' | 'live';
  create(context: ComponentContext): CortexInstance | Promise<CortexInstance>;
}

export type ComponentDefinition = InterfaceDefinition | PluginDefinition | CortexDefinition;

export const defineInterface = (definition: Omit<InterfaceDefinition, 'kind'>): InterfaceDefinition => ({ ...definition, kind: 'interface' });
export const definePlugin = (definition: Omit<PluginDefinition, 'kind'>): PluginDefinition => ({ ...definition, kind: 'plugin' });
export const defineCortex = (definition: Omit<CortexDefinition, 'kind'>): CortexDefinition => ({ ...definition, kind: 'cortex' });

/** The message action of an interface: `message_<interface_id>`. */
export const messageActionOf = (interfaceId: string): string => `message_${interfaceId}`;
