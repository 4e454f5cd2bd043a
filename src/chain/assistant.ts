import type { BodyServer } from '../body/body-server.ts';
import type { Clock } from '../body/clock.ts';
import { CompatBridge } from '../compat/compat-bridge.ts';
import { WebChat } from '../chat/web-chat.ts';
import type { BodyPort, HostServices, UploadsPort } from '../components/contract.ts';
import { Delivery } from '../components/delivery.ts';
import { areDevComponentsEnabled } from '../components/dev-flag.ts';
import { defaultRoots, discoverComponents, type ComponentRoots } from '../components/discovery.ts';
import { ComponentRegistry } from '../components/registry.ts';
import type { ConfigStore } from '../config/store.ts';
import type { DatabaseHandle } from '../db/dialect.ts';
import type { DiaryRepository } from '../db/repositories/diary.ts';
import { ActivityLogRepository } from '../db/repositories/activity-log.ts';
import { IntegrationsRepository } from '../db/repositories/integrations.ts';
import type { ChatHistory } from '../history/chat-history.ts';
import type { Logger } from '../logging.ts';
import type { MemoryStore } from '../memory/memory-store.ts';
import { activityPort } from './activity-port.ts';
import { completionPort } from './completion.ts';
import { CortexSelector } from './cortex-selector.ts';
import { diaryPort, historyPort } from './history-adapter.ts';
import { integrationInterface } from './integration-interface.ts';
import { Integrations } from './integrations.ts';
import type { Metrics } from '../system/metrics.ts';
import { StreamDesk } from '../stream/stream-desk.ts';
import { MessageChain } from './message-chain.ts';
import { SpeechSlot, VoiceSlot } from './speech.ts';
import { operatorRule } from './trainers.ts';

export interface AssistantOptions {
  config: ConfigStore;
  logger: Logger;
  database: DatabaseHandle;
  body: BodyServer;
  /** The temporary animation uploads, as the `uploads` service. */
  uploads: UploadsPort;
  paths: { cwd: string; backups: string };
  /** Tests point discovery at fixture folders; production uses `interface/`, `plugins/`, `cortex/` under cwd. */
  roots?: Partial<ComponentRoots>;
  /** The process's chat history, when it has one; otherwise the chain opens its own over the database. */
  history?: ChatHistory;
  diary: DiaryRepository;
  metrics: Metrics;
  /** Long-term memory, as the `memory` service. */
  memory: MemoryStore;
  /** The process's one clock: the components' `clock` service, the chain's deadlines, the compat timers. */
  clock: Clock;
}

/**
 * The assistant's brain and limbs: components, the Cortex selection, the message chain and integrations.
 * Everything but `start` and `stop` is a service of its own (`MessagingServices`), reached by its name.
 */
export interface Assistant {
  components: ComponentRegistry;
  /** The one path from the host to a component's actions. */
  delivery: Delivery;
  cortex: CortexSelector;
  chain: MessageChain;
  integrations: Integrations;
  /** The web UI's conversations; the `webui` interface answers into them. */
  webChat: WebChat;
  /** The compat port's answers in progress; the `compat` interface is its component. */
  compat: CompatBridge;
  /** Where the audio subsystem registers its tts_speak hook. */
  speech: SpeechSlot;
  /** Where the audio subsystem plugs in the components' `voice` service. */
  voice: VoiceSlot;
  /** Stream mode: live-stream chat answered at a pace (the components' `stream` service). */
  stream: StreamDesk;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export type MessagingServices = Omit<Assistant, 'start' | 'stop'>;

/** The body as components may move it, and nothing else of the body-state server. */
function bodyPort(body: BodyServer): BodyPort {
  return {
    transitionTo: (state, options) => void body.transitionTo(state, options),
    stopAnimation: (contextId) => void body.stopAnimation(contextId),
    setExpression: (name, intensity) => body.setExpression(name, intensity),
    clearExpression: () => body.clearExpression(),
    setFaceValues: (values) => body.setFaceValues(values),
    persona: () => body.persona(),
    provideEmotions: (source) => body.setEmotionSource(source),
  };
}

export function createAssistant(options: AssistantOptions): Assistant {
  const { config, logger, database, body, clock } = options;
  const history = historyPort({ db: database.db, dialect: database.dialect, config, logger, ...(options.history ? { history: options.history } : {}) });
  const speech = new SpeechSlot();
  const voice = new VoiceSlot();
  // Background completions (memory extraction) end with the chain.
  const completions = new AbortController();
  // Components are created only in start(), once every service below exists.
  const services = (): HostServices => ({
    chain: { submit: (message, submitOptions) => chain.submit(message, submitOptions) },
    outbox: { enqueue: (source, message) => integrations.enqueue(source, message) },
    diary: diaryPort(options.diary),
    body: bodyPort(body),
    uploads: options.uploads,
    webChat: { show: (interfacePath, text) => webChat.say(interfacePath, text) },
    compat: { cancelAll: () => compat.cancelAll() },
    voice,
    metrics: { observeStage: (stage, seconds) => options.metrics.observeStage(stage, seconds) },
    memory: options.memory,
    completion: completionPort(cortex, config, completions.signal, clock),
    clock,
    activity: activityPort(new ActivityLogRepository(database.db)),
    inbox: { recent: (source, limit) => integrations.stored(source, limit) },
    stream,
  });
  const components = new ComponentRegistry({ config, logger, paths: options.paths, services });
  const operators = operatorRule(config, components);
  const delivery = new Delivery({ registry: components, mayOperate: operators.mayOperate, logger });
  const cortex = new CortexSelector(components, config);
  const chain = new MessageChain({ registry: components, delivery, operators, cortex, history, body, config, logger, speech, clock, metrics: options.metrics });
  options.metrics.gauge('anima_chain_queue_depth', 'Messages being answered or waiting in the chain', () => chain.pending);
  const integrations = new Integrations(new IntegrationsRepository(database.db), chain, { logger, clock });
  const webChat = new WebChat({ chain, logger: logger.child({ component: 'web_chat' }) });
  const compat = new CompatBridge({ chain, config, clock, logger: logger.child({ component: 'compat' }) });
  const stream = new StreamDesk({
    chain,
    voice,
    clock,
    config,
    logger: logger.child({ component: 'stream_mode' }),
    silence: () => body.clearAudio(),
  });
  const devLoaded = areDevComponentsEnabled();
  const roots = { ...defaultRoots(options.paths.cwd), ...options.roots };
  return {
    components,
    delivery,
    cortex,
    chain,
    integrations,
    webChat,
    compat,
    speech,
    voice,
    stream,
    async start() {
      await components.loadAll([integrationInterface], await discoverComponents(roots, devLoaded));
    },
    async stop() {
      stream.stop();
      chain.stop();
      completions.abort(new Error('the assistant is stopping'));
      await compat.cancelAll();
      await components.stopAll();
      await integrations.stop();
      await history.stop();
    },
  };
}
