import type { BodyServer } from '../body/body-server.ts';
import type { ComponentContext, ComponentKind } from '../components/contract.ts';
import { areDevComponentsEnabled } from '../components/dev-flag.ts';
import { defaultRoots, discoverComponents, type ComponentRoots } from '../components/discovery.ts';
import { ComponentRegistry } from '../components/registry.ts';
import type { ConfigStore } from '../config/store.ts';
import type { DatabaseHandle } from '../db/dialect.ts';
import type { DiaryRepository } from '../db/repositories/diary.ts';
import { IntegrationsRepository } from '../db/repositories/integrations.ts';
import type { ChatHistory } from '../history/chat-history.ts';
import type { Logger } from '../logging.ts';
import { CortexSelector } from './cortex-selector.ts';
import { diaryPort, historyPort } from './history-adapter.ts';
import { integrationInterface } from './integration-interface.ts';
import { Integrations } from './integrations.ts';
import { MessageChain } from './message-chain.ts';
import { SpeechSlot } from './speech.ts';

export interface AssistantOptions {
  config: ConfigStore;
  logger: Logger;
  database: DatabaseHandle;
  body: BodyServer;
  paths: { cwd: string; backups: string };
  /** Tests point discovery at fixture folders; production uses `interface/`, `plugins/`, `cortex/` under cwd. */
  roots?: Partial<ComponentRoots>;
  /** The process's chat history, when it has one; otherwise the chain opens its own over the database. */
  history?: ChatHistory;
  diary: DiaryRepository;
}

/** The assistant's brain and limbs: components, the Cortex selection, the message chain and integrations. */
export interface Assistant {
  components: ComponentRegistry;
  cortex: CortexSelector;
  chain: MessageChain;
  integrations: Integrations;
  /** Where the audio subsystem registers its tts_speak hook. */
  speech: SpeechSlot;
  /** Whether this run discovered the dev folders (the flag as it was at start). */
  devLoaded: boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createAssistant(options: AssistantOptions): Assistant {
  const { config, logger, database, body } = options;
  const history = historyPort({ db: database.db, dialect: database.dialect, config, logger, ...(options.history ? { history: options.history } : {}) });
  const diary = diaryPort(options.diary);
  const speech = new SpeechSlot();
  // Components get their context only in start(), once the chain and the outboxes below exist.
  const contextFor = (name: string, kind: ComponentKind): ComponentContext => ({
    name,
    config,
    logger: logger.child({ component: `${kind}:${name}` }),
    paths: options.paths,
    body,
    diary,
    chain: { submit: (message, submitOptions) => chain.submit(message, submitOptions) },
    outbox: { enqueue: (source, message) => integrations.enqueue(source, message) },
  });
  const components = new ComponentRegistry({ config, logger, contextFor });
  const cortex = new CortexSelector(components, config);
  const chain = new MessageChain({ registry: components, cortex, history, body, config, logger, speech });
  const integrations = new Integrations(new IntegrationsRepository(database.db), chain);
  const devLoaded = areDevComponentsEnabled();
  const roots = { ...defaultRoots(options.paths.cwd), ...options.roots };
  return {
    components,
    cortex,
    chain,
    integrations,
    speech,
    devLoaded,
    async start() {
      await components.loadAll([integrationInterface], await discoverComponents(roots, devLoaded));
    },
    async stop() {
      chain.stop();
      cortex.stop();
      await components.stopAll();
      await history.stop();
    },
  };
}
