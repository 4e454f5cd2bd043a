import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startAudio, type AudioServices } from './audio/audio-services.ts';
import type { BodyServer } from './body/body-server.ts';
import { startAvatarFiles, type AvatarFiles } from './body/avatar-files.ts';
import { startBodyService } from './body/body-service.ts';
import { createAssistant, type Assistant } from './chain/assistant.ts';
import { connectWebChat } from './chat/web-chat-interface.ts';
import type { ComponentRoots } from './components/discovery.ts';
import type { ConfigStore } from './config/store.ts';
import { openDatabase, type DatabaseHandle } from './db/dialect.ts';
import { ActivityLogRepository } from './db/repositories/activity-log.ts';
import { ConfigEntriesRepository } from './db/repositories/config-entries.ts';
import { createHistoryServices, type HistoryServices } from './history/history-services.ts';
import type { LogTap, Logger } from './logging.ts';
import { followSecrets } from './logging-redact.ts';
import { HELLO_TIMEOUT_MS, SessionTokens, SocketGate, TrustPolicy } from './trust.ts';

export interface ListeningPorts {
  http: number | null;
  https: number | null;
  compat: number | null;
}

/** Facts about this run of the process, filled in by main as listeners come up. */
export interface RuntimeInfo {
  version: string;
  startedAt: Date;
  ports: ListeningPorts;
}

/** What the process does on `POST /api/system/restart`; main restarts in place. */
export interface Lifecycle {
  requestRestart(): void;
}

export interface Paths {
  cwd: string;
  backups: string;
  skins: string;
}

/** The process-wide singletons every route and component receives. */
export interface Services {
  config: ConfigStore;
  database: DatabaseHandle;
  logger: Logger;
  logTap: LogTap;
  trust: TrustPolicy;
  gate: SocketGate;
  activity: ActivityLogRepository;
  runtime: RuntimeInfo;
  lifecycle: Lifecycle;
  paths: Paths;
  /** The avatar's body-state server (model, animation, face, speech audio). */
  body: BodyServer;
  /** Uploaded animations (temporary, promotable) and custom VRM models. */
  avatarFiles: AvatarFiles;
  /** Chat history, the web session, chat archives, session metadata, the diary. */
  history: HistoryServices;
  /** Components, the Cortex engines, the message chain and integrations. */
  assistant: Assistant;
  /** Speech: Auris (speech-to-text), Vox (text-to-speech with lip-sync), Live (streaming voice). */
  audio: AudioServices;
  /** Stops what a service started (timers, workers); run in reverse order by `closeServices`. */
  disposers: Array<() => Promise<void> | void>;
}

export interface ServiceOptions {
  config: ConfigStore;
  logger: Logger;
  logTap: LogTap;
  lifecycle: Lifecycle;
  cwd?: string;
  /** Overrides DATABASE_URL (tests use fresh databases). */
  databaseUrl?: string;
  helloTimeoutMs?: number;
  /** Where components are discovered (tests use fixture folders); defaults under cwd. */
  componentRoots?: Partial<ComponentRoots>;
}

export const packageVersion: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** Opens the database, layers the saved configuration on top, and wires the shared services. */
export async function createServices(options: ServiceOptions): Promise<Services> {
  const { config, logger } = options;
  const cwd = options.cwd ?? process.cwd();
  // Before the database opens (a driver error may quote DATABASE_URL); saved entries follow as changes.
  const stopRedacting = followSecrets(config, options.logTap.redactor);
  const database = await openDatabase(options.databaseUrl ?? config.get('DATABASE_URL'), cwd);
  const skipped = await config.attachOverrides(new ConfigEntriesRepository(database.db, database.dialect));
  for (const entry of skipped) logger.warn({ key: entry.key, issues: entry.issues }, 'ignoring a saved configuration entry that is no longer valid');
  const trust = new TrustPolicy(
    { apiKey: () => config.get('APP_API_KEY'), trustLoopback: () => config.get('APP_TRUST_LOOPBACK') },
    new SessionTokens(),
  );
  const history = await createHistoryServices({ database, config, logger, backups: resolve(cwd, config.get('BACKUPS_DIR')) });
  const bodyService = await startBodyService({ config, logger, skinsDir: resolve(cwd, config.get('SKINS_DIR')) });
  const avatarFiles = await startAvatarFiles({ body: bodyService.body, config, logger, backups: resolve(cwd, config.get('BACKUPS_DIR')) });
  const assistant = createAssistant({
    config,
    logger,
    database,
    body: bodyService.body,
    history: history.chat,
    diary: history.diary,
    paths: { cwd, backups: resolve(cwd, config.get('BACKUPS_DIR')) },
    ...(options.componentRoots ? { roots: options.componentRoots } : {}),
  });
  await assistant.start();
  const audio = await startAudio({ config, logger, cwd, body: bodyService.body, assistant });
  const disconnectWebChat = connectWebChat({ components: assistant.components, outlets: audio.vox.outlets, archives: history.archives });
  return {
    config,
    database,
    logger,
    logTap: options.logTap,
    trust,
    gate: new SocketGate(trust, options.helloTimeoutMs ?? HELLO_TIMEOUT_MS),
    activity: new ActivityLogRepository(database.db),
    runtime: { version: packageVersion, startedAt: new Date(), ports: { http: null, https: null, compat: null } },
    lifecycle: options.lifecycle,
    paths: {
      cwd,
      backups: resolve(cwd, config.get('BACKUPS_DIR')),
      skins: resolve(cwd, config.get('SKINS_DIR')),
    },
    body: bodyService.body,
    avatarFiles,
    history,
    assistant,
    audio,
    disposers: [stopRedacting, history.stop, bodyService.stop, avatarFiles.stop, assistant.stop, audio.stop, disconnectWebChat],
  };
}

/** Stops every service in reverse order of creation, then closes the database. */
export async function closeServices(services: Services): Promise<void> {
  for (const dispose of services.disposers.reverse()) await dispose();
  await services.database.close();
}
