import type { Logger } from 'pino';
import type { z } from 'zod';
import type { VariableKey } from '../config/schema.ts';
import type { MemoryStore } from '../memory/memory-store.ts';
import type { Stage as MetricStage } from '../system/metrics.ts';
import type { ActionOrigin, IncomingMessageInput, SubmitOptions, SubmitResult, TokenUsage } from './messages.ts';
import type { ClockPort, ConfigPort, ConnectionReport } from './ports.ts';

export type { ClockPort, ConfigChangeEvent, ConfigPort, ConnectionReport } from './ports.ts';

export type { Action, ActionOrigin, AttentionCommand, ChainOutcome, IncomingMessageInput, SubmitOptions, SubmitResult, TokenUsage } from './messages.ts';
export { deliveredText, messageActionOf } from './messages.ts';
export type { Memory, MemoryCandidate, MemoryKind, NewMemory, Person, RecallScope, RememberOutcome } from '../memory/types.ts';
export { type AllowedFolders, localFileOf, realLocalFile } from './local-files.ts';
export { splitMessage } from './split-message.ts';
export { TypingIndicators } from './typing-indicators.ts';
export { SerialConnection } from './serial-connection.ts';
export { PollingLoop, type PollingOptions, waitOn } from './polling.ts';
export { withTimeout } from './with-timeout.ts';
export { PolledAccount, type PolledAccountOptions } from './polled-account.ts';
export { OAuthToken, type OAuthTokenOptions, type RefreshGrant, TokenRefusedError } from './oauth-refresh.ts';
export { viewerHearing } from './viewer-hearing.ts';
export { deliverReplies, type SpokenReplyOptions, submitWithVoice } from './spoken-replies.ts';
export { hearVoiceMessage, VOICE_UNCLEAR, VOICE_UNHEARD, type VoiceMessageSource } from './voice-messages.ts';

/**
 * The one contract of the three component kinds, and the only module of `src/` a component imports. A
 * component folder (`interface/<name>/index.ts`, `plugins/<name>/index.ts`, `cortex/<name>/index.ts`)
 * default-exports a definition made with `defineInterface`, `definePlugin` or `defineCortex`. Spec names
 * on the left, ours on the right:
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
 * A component names the host services it uses in `needs` and receives exactly those in
 * `context.services`; everything it registers through its context (configuration listeners, `onStop`
 * work) is released when it stops. `create` runs at discovery for every component, gated or not, so it
 * must only build objects; the work (connections, timers) belongs in `start`, which runs only once the
 * configuration is present.
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
  /** A sensitive operation: delivered only for a message from an operator (TRAINER_IDS). */
  operatorOnly?: boolean;
}

/** A route a component serves, framework-free; the HTTP layer adapts it (503 while the component is not loaded). */
export interface ComponentRoute {
  method: 'GET' | 'POST';
  /** Absolute and under `/api/` (anything else is ignored: it would be public), e.g. `/api/weather/current`. */
  path: string;
  summary: string;
  handle(input: { query: unknown; body: unknown }): Promise<RouteResult> | RouteResult;
  /** The answer while the component is not loaded; without it the route answers 503 with the reason. */
  unloaded?(reason: string): RouteResult;
}

export interface RouteResult {
  status?: number;
  body?: unknown;
  /** A file to send instead of a JSON body (an audio file), streamed from disk with this content type. */
  file?: { path: string; contentType: string };
}

/** An error a component route throws for a client mistake; the HTTP layer keeps its status and code. */
export class ComponentRouteError extends Error {
  constructor(
    readonly statusCode: 400 | 403 | 404 | 409 | 503,
    readonly code: 'invalid_request' | 'forbidden' | 'not_found' | 'conflict' | 'unavailable',
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
  /** The stored message's id; 0 while the database is unreachable (the message is held and written when it returns). */
  enqueue(source: string, message: { type: string; payload: Record<string, unknown>; metadata?: Record<string, unknown> }): Promise<number>;
}

export interface DiaryPort {
  write(entry: { text: string; interfacePath: string | null; tags: string[] }): Promise<number>;
}

/**
 * The active skin's emotions (persona.json): each name's preset (blend shape to weight 0..1), and how
 * fast an emotion rises (`default`) and fades (`decay`), as rates per second.
 */
export interface PersonaEmotions {
  skin: string;
  emotions: Record<string, Record<string, number>>;
  emotion_speed: { default: number; decay: number };
}

/** The runtime emotions (spec: animation_state `emotions`): each one's level 0..1, and the strongest. */
export interface EmotionSnapshot {
  dominant: string;
  values: Record<string, number>;
}

/** The avatar's body as a component may move it: state transitions and facial expressions. */
export interface BodyPort {
  /** Enters a state for a context (`contextId`); refused (throws) for a lower priority than the current one. */
  transitionTo(state: string, options?: { contextId?: string; sessionId?: string; source?: string }): void;
  /** Ends the context; the body returns to idle once no other context holds it. */
  stopAnimation(contextId: string): void;
  /** `vrm_expression_set`: a short-lived override of the face (an emotion preset or an expression name). */
  setExpression(name: string, intensity: number): void;
  /** `vrm_expression_clear`: back to the emotional baseline. */
  clearExpression(): void;
  /** `vrm_face`: the face's blend-shape values (0..1); broadcast only when they changed. */
  setFaceValues(values: Record<string, number>): void;
  /** The active skin's emotions (persona.json): each name's blend-shape preset, and their speeds per second. */
  persona(): Promise<PersonaEmotions>;
  /**
   * Becomes the emotion manager: `source` gives the runtime emotions (undefined at rest) that join every
   * animation command's animation_state and `GET /api/emotion_state`. Returns the release.
   */
  provideEmotions(source: () => EmotionSnapshot | undefined): () => void;
}

/** Temporary animation uploads (skins/temp), the same store the HTTP routes use. */
export interface UploadsPort {
  /** Copies an upload into a skin (`POST /api/animations/promote`'s rules); throws a clear error when refused. */
  promote(request: unknown): Promise<{ skin: string; state: string; file: string }>;
}

/** The web UI's chat windows. */
export interface WebChatPort {
  /** Shows an assistant message in every window of `webui/<session_id>`; false when none shows it. */
  show(interfacePath: string, text: string): boolean;
}

/** The Ollama/OpenAI-compatible port's answers in progress. */
export interface CompatPort {
  /** Ends every answer in progress with its final chunk. */
  cancelAll(): Promise<void>;
}

/** A finished voice note: an audio file the interface uploads, removed by `dispose` once sent. */
export interface VoiceNote {
  path: string;
  mimeType: string;
  durationS: number;
  dispose(): Promise<void>;
}

/** Voice on chat platforms: voice messages in (Auris), voice notes out (Vox, re-encoded for the platform). */
export interface VoicePort {
  /** Whether speech-to-text is on, so a voice message can be understood. */
  readonly canListen: boolean;
  /** Whether a voice engine is on, so a reply can be spoken. */
  readonly canSpeak: boolean;
  /** The words of a voice message (any audio ffmpeg reads); "" for silence; throws a clear Error when it cannot. */
  transcribe(path: string, mimeType?: string): Promise<string>;
  /**
   * Speaks `text` into a conversation: the audio reaches the interface through its `send_media_<id>` action
   * (else its message action, with the text). False when speech failed or nothing took it.
   */
  speak(interfacePath: string, text: string): Promise<boolean>;
  /** Re-encodes audio (a Vox WAV) as an OGG/Opus voice note, the format Telegram and Matrix clients play. */
  voiceNote(path: string): Promise<VoiceNote>;
  /**
   * Speaks `text` into a new WAV file in VOX_OUTPUT_DIR, for no conversation (the radio's banter): `engine`
   * overrides the active engine (which then uses its own `<ENGINE>_VOICE`). Throws a clear Error on failure.
   */
  synthesize(text: string, options?: { engine?: string }): Promise<SynthesizedSpeech>;
}

/** A WAV file Vox wrote; the caller moves or deletes it. */
export interface SynthesizedSpeech {
  path: string;
  durationS: number;
}

/** A live-stream viewer's message (Twitch, YouTube) offered to stream mode. */
export interface ViewerMessage {
  message: IncomingMessageInput;
  /** A cheer, a subscription, a raid, a super chat: answered before everything else. */
  support?: boolean;
}

/** Stream mode (STREAM_MODE): live-stream chat answered at a pace, the best message first, spoken by the avatar. */
export interface StreamPort {
  /** Whether stream mode is on; when off, a live-stream interface submits each message to the chain itself. */
  readonly enabled: boolean;
  /** `filtered` when STREAM_BLOCKED_WORDS blocks it; else it waits for the next pick. */
  offer(viewer: ViewerMessage): 'queued' | 'filtered';
}

/** Latency figures for `GET /api/metrics` (`anima_stage_seconds{stage}`). */
export interface MetricsPort {
  observeStage(stage: MetricStage, seconds: number): void;
}

/**
 * Long-term memory (contract "Memory"), the same store the `/api/memory` routes use: people across
 * platforms, what is remembered of them with its history, full-text search and stored vectors.
 */
export type MemoryPort = Pick<
  MemoryStore,
  'personFor' | 'candidates' | 'remember' | 'list' | 'getMany' | 'markRecalled' | 'forgetPerson' | 'vectors' | 'setEmbedding'
>;

/** An answer that must be JSON of `schema` (a JSON Schema object), as OpenAI's structured outputs name it. */
export interface JsonResponseFormat {
  name: string;
  schema: Record<string, unknown>;
}

/** Thrown by an engine that does not do the host's own (background) work, such as a human operator's. */
export class BackgroundDeclinedError extends Error {}

/** One completion of the active Cortex engine for the host's own work (memory extraction), not for a person. */
export interface CompletionPort {
  /** The whole answer; throws when no engine is active, the engine fails or CORTEX_TIMEOUT_S passes. */
  complete(request: { messages: ChatTurn[]; interfacePath: string; responseFormat?: JsonResponseFormat; signal?: AbortSignal }): Promise<string>;
}

/** An entry of the activity log (`GET /api/history/activity`) as a component reads it back. */
export interface ActivityRecord {
  id: number;
  /** ISO 8601 UTC. */
  time: string;
  kind: string;
  message: string;
  data: unknown;
}

/** The activity log in the database: what a component did, kept across restarts. */
export interface ActivityPort {
  /** Records an entry; returns its row id. */
  record(kind: string, message: string, data?: unknown): Promise<number>;
  /** Newest first; only kinds starting with `kindPrefix`. */
  recent(kindPrefix: string, limit: number): Promise<ActivityRecord[]>;
  find(id: number): Promise<ActivityRecord | undefined>;
}

/** A non-chat message of the integration ingress (`POST /api/integrations/messages`), kept for later retrieval. */
export interface StoredIntegrationMessage {
  type: string;
  payload: Record<string, unknown>;
  metadata: Record<string, unknown>;
  /** ISO 8601 UTC. */
  created_at: string;
}

/** The stored (non-chat) integration messages of one source. */
export interface InboxPort {
  /** The latest `limit` messages of `source`, oldest first. */
  recent(source: string, limit: number): Promise<StoredIntegrationMessage[]>;
}

/** Every service a component may name in `needs`. */
export interface HostServices {
  chain: ChainPort;
  outbox: OutboxPort;
  diary: DiaryPort;
  body: BodyPort;
  uploads: UploadsPort;
  webChat: WebChatPort;
  compat: CompatPort;
  voice: VoicePort;
  metrics: MetricsPort;
  memory: MemoryPort;
  completion: CompletionPort;
  clock: ClockPort;
  activity: ActivityPort;
  inbox: InboxPort;
  stream: StreamPort;
}
export type ServiceName = keyof HostServices;

/** What a component sees: configuration, its logger and the services it declared, nothing else. */
export interface ComponentContext<N extends ServiceName = ServiceName> {
  name: string;
  config: ConfigPort;
  logger: Logger;
  paths: { cwd: string; backups: string };
  services: Pick<HostServices, N>;
  /** Work to do when the component stops (a timer, a connection); runs after its own `stop`. */
  onStop(dispose: () => void | Promise<void>): void;
  /** Reports the state of its connection; the latest report is shown until it stops. */
  reportConnection(report: ConnectionReport): void;
}

export interface ComponentInstance {
  actions?: Record<string, ActionSpec>;
  /** validate_payload: extra checks beyond the schema; each string is one error. */
  validatePayload?(actionType: string, payload: Record<string, unknown>): string[];
  handleAction?(actionType: string, payload: Record<string, unknown>, origin: ActionOrigin): Promise<void> | void;
  /**
   * Text added to the system prompt while the component is active (the time, the weather, what is
   * remembered of the sender); `turn` is the message being answered. Given CONTEXT_BUDGET_MS at most.
   */
  promptContext?(turn: PromptTurn): Promise<string | undefined> | string | undefined;
  /**
   * The answer has been delivered (memory extraction, the emotion state). Called without waiting: it never
   * delays an answer, and a failure is only logged.
   */
  afterReply?(turn: CompletedTurn): Promise<void> | void;
  routes?: ComponentRoute[];
  /** The "Run now" button; a component without it is not runnable. */
  run?(): Promise<unknown> | unknown;
  start?(): Promise<void> | void;
  stop?(): Promise<void> | void;
}

/** The message being answered, as a component's prompt context sees it. */
export interface PromptTurn {
  interfaceId: string;
  interfacePath: string;
  senderId: string;
  senderName: string;
  text: string;
}

/** An emotion the reply showed: an `[em_<name>]` tag (removed from the text), or a `tts_speak` emotion. */
export interface EmotionCue {
  name: string;
  /** 0..1 when the tag gave one. */
  intensity: number | undefined;
  source: 'tag' | 'speech';
}

/** A message and the answer that was delivered for it. */
export interface CompletedTurn extends PromptTurn {
  /** The reply's text as delivered (empty when the reply was actions only). */
  reply: string;
  /** The emotions the reply showed, in order (its tags first, then its speech's). */
  emotions: EmotionCue[];
}

/** One turn of the conversation as the engine sees it. */
export interface ChatTurn {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface CortexRequest {
  messages: ChatTurn[];
  interfacePath: string;
  /** The message being answered as it arrived (the last user turn of `messages` carries it, prefixed with the name). */
  message: { senderId: string; senderName: string; text: string };
  /** Aborted on the chain's deadline, at shutdown, or when the asker goes away; the engine must stop promptly. */
  signal: AbortSignal;
  /** Engines whose back end counts tokens report the counts here, once the reply is complete. */
  onUsage?(usage: TokenUsage): void;
  /** The answer must be JSON of this schema; an engine without structured output gets it said in the prompt. */
  responseFormat?: JsonResponseFormat;
  /** The host's own request (memory extraction), not a person's message: an engine with a human behind it refuses it. */
  background?: boolean;
}

export interface CortexInstance extends ComponentInstance {
  /** Streams the reply as text deltas; throws on failure. */
  generate(request: CortexRequest): AsyncIterable<string>;
  /** Browser-automation engines open their login flow here. */
  login?(): Promise<{ message: string; url?: string }>;
}

interface DefinitionBase<N extends ServiceName> {
  /** Defaults to the folder name. */
  name?: string;
  description?: string;
  requiredConfig?: RequiredConfig;
  /** false: setting the missing variables at run time needs a restart instead of loading at once. */
  hotLoad?: boolean;
  /** The host services `create` receives in `context.services`. */
  needs?: readonly N[];
}

export interface InterfaceDefinition<N extends ServiceName = ServiceName> extends DefinitionBase<N> {
  kind: 'interface';
  interfaceId: string;
  /** true: the interface drives transition_to itself; the chain sends no think/write/idle for it. */
  ownsAnimation?: boolean;
  /**
   * true: every sender already passed the process's trust check (loopback or APP_API_KEY), like the
   * operator's own tools, so the per-user chat rate limit does not apply to its messages.
   */
  trustedSenders?: boolean;
  /**
   * true: every sender passed the process's trust check and is the operator at their own machine (the
   * web UI), so they may always operate (attention commands, `operatorOnly` actions), whatever TRAINER_IDS says.
   */
  operatorSenders?: boolean;
  /**
   * true: a public chat platform (Telegram, Matrix), where anyone may write: only its trainers may
   * operate (attention commands, `operatorOnly` actions), and with none named, nobody.
   */
  chatPlatform?: boolean;
  /** A variable of this platform's own operator user ids (comma-separated), trainers as if listed in TRAINER_IDS. */
  trainerVariable?: VariableKey;
  create(context: ComponentContext<N>): ComponentInstance | Promise<ComponentInstance>;
}

export interface PluginDefinition<N extends ServiceName = ServiceName> extends DefinitionBase<N> {
  kind: 'plugin';
  create(context: ComponentContext<N>): ComponentInstance | Promise<ComponentInstance>;
}

/** `engineKind` is the spec's engine `kind`: `chat` answers prompts, `live` runs streaming sessions. */
export interface CortexDefinition<N extends ServiceName = ServiceName> extends DefinitionBase<N> {
  kind: 'cortex';
  engineKind: 'chat' | 'live';
  create(context: ComponentContext<N>): CortexInstance | Promise<CortexInstance>;
}

export type ComponentDefinition = InterfaceDefinition | PluginDefinition | CortexDefinition;

// `N` is inferred from `needs`, so `context.services` holds exactly the declared services.
export const defineInterface = <const N extends ServiceName = never>(definition: Omit<InterfaceDefinition<N>, 'kind'>): InterfaceDefinition<N> => ({
  ...definition,
  kind: 'interface',
});
export const definePlugin = <const N extends ServiceName = never>(definition: Omit<PluginDefinition<N>, 'kind'>): PluginDefinition<N> => ({
  ...definition,
  kind: 'plugin',
});
export const defineCortex = <const N extends ServiceName = never>(definition: Omit<CortexDefinition<N>, 'kind'>): CortexDefinition<N> => ({
  ...definition,
  kind: 'cortex',
});
