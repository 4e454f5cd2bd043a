import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startAudio, type AudioServices } from './audio/audio-services.ts';
import type { BodyServer } from './body/body-server.ts';
import { systemClock, type Clock } from './body/clock.ts';
import { startAvatarFiles, type AvatarFiles } from './body/avatar-files.ts';
import { startBodyService } from './body/body-service.ts';
import { PromoteRequestSchema, promoteUpload } from './body/upload-promotion.ts';
import { createAssistant, type MessagingServices } from './chain/assistant.ts';
import { connectWebChat } from './chat/web-chat-interface.ts';
import type { ComponentRoots } from './components/discovery.ts';
import type { ConfigStore } from './config/store.ts';
import { openDatabase, type DatabaseHandle } from './db/dialect.ts';
import { ActivityLogRepository } from './db/repositories/activity-log.ts';
import { ConfigEntriesRepository } from './db/repositories/config-entries.ts';
import { createHistoryServices, type HistoryServices } from './history/history-services.ts';
import type { LogTap, Logger } from './logging.ts';
import { MemoryStore } from './memory/memory-store.ts';
import { followSecrets } from './logging-redact.ts';
import { HELLO_TIMEOUT_MS, SocketGate } from './realtime/socket-gate.ts';
import { Metrics } from './system/metrics.ts';
import { SessionTokens, TrustPolicy, type ListenerTrust } from './trust.ts';

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

/**
 * The process-wide singletons every route and component receives. The component registry, the delivery
 * path, the chain, the Cortex selection, integrations, the web chat and the compat bridge are services of
 * their own (`MessagingServices`).
 */
export interface Services extends MessagingServices {
  config: ConfigStore;
  database: DatabaseHandle;
  logger: Logger;
  logTap: LogTap;
  trust: TrustPolicy;
  /** What each listener adds to the trust rules (its allowed browser origins). */
  listeners: { web: ListenerTrust; compat: ListenerTrust };
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
  /** Speech: Auris (speech-to-text), Vox (text-to-speech with lip-sync), Live (streaming voice). */
  audio: AudioServices;
  /** Prometheus metrics: stage latencies, socket and queue gauges (`GET /api/metrics`). */
  metrics: Metrics;
  /** Long-term memory: people, identities, memories (`/api/memory`, `/api/people`, the memory plugin). */
  memory: MemoryStore;
  /** The process's one clock: every timer and deadline of the server runs on it (tests pass a ManualClock). */
  clock: Clock;
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
  /** The process's one clock, handed to every service with a timer; the system clock unless a test passes a manual one. */
  clock?: Clock;
}

export const packageVersion: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** Opens the database, layers the saved configuration on top, and wires the shared services. */
export async function createServices(options: ServiceOptions): Promise<Services> {
  const { config } = options;
  const cwd = options.cwd ?? process.cwd();
  // Before the database opens (a driver error may quote DATABASE_URL); saved entries follow as changes.
  const disposers: Services['disposers'] = [followSecrets(config, options.logTap.redactor)];
  const database = await openDatabase(options.databaseUrl ?? config.get('DATABASE_URL'), cwd).catch(async (error: unknown) => {
    await stopAll(disposers);
    throw error;
  });
  try {
    return await wireServices(options, cwd, database, disposers);
  } catch (error) {
    // A start that fails half-way (a folder it cannot use) leaves nothing running behind a retry.
    await stopAll(disposers);
    await database.close();
    throw error;
  }
}

async function stopAll(disposers: Services['disposers']): Promise<void> {
  for (const dispose of disposers.reverse()) await dispose();
}

/** The services over an open database; each one's stop joins `disposers` as soon as it has started. */
async function wireServices(options: ServiceOptions, cwd: string, database: DatabaseHandle, disposers: Services['disposers']): Promise<Services> {
  const { config, logger } = options;
  const clock = options.clock ?? systemClock;
  const skipped = await config.attachOverrides(new ConfigEntriesRepository(database.db, database.dialect));
  for (const entry of skipped) logger.warn({ key: entry.key, issues: entry.issues }, 'ignoring a saved configuration entry that is no longer valid');
  const trust = new TrustPolicy(
    {
      apiKey: () => config.get('APP_API_KEY'),
      trustLoopback: () => config.get('APP_TRUST_LOOPBACK'),
      allowedHosts: () => [config.get('APP_WEBUI_HOST'), config.get('COMPAT_HOST'), ...config.get('APP_ALLOWED_HOSTS')],
    },
    new SessionTokens(() => clock.now()),
  );
  const listeners = {
    web: { allowedOrigins: () => config.get('APP_ALLOWED_ORIGINS'), formsNeedCredential: true },
    compat: { allowedOrigins: () => config.get('COMPAT_ALLOWED_ORIGINS'), formsNeedCredential: false },
  };
  const history = await createHistoryServices({
    database,
    config,
    logger,
    backups: resolve(cwd, config.get('BACKUPS_DIR')),
    timers: clock,
  });
  disposers.push(history.stop);
  const metrics = new Metrics();
  // A memory's age is measured on the clock its recall reads.
  const memory = new MemoryStore(database, () => new Date(clock.now()));
  const bodyService = await startBodyService({ config, logger, clock, skinsDir: resolve(cwd, config.get('SKINS_DIR')) });
  disposers.push(bodyService.stop);
  const avatarFiles = await startAvatarFiles({ body: bodyService.body, config, logger, backups: resolve(cwd, config.get('BACKUPS_DIR')) });
  disposers.push(avatarFiles.stop);
  const {
    start: startAssistant,
    stop: stopAssistant,
    ...messaging
  } = createAssistant({
    config,
    logger,
    database,
    body: bodyService.body,
    uploads: { promote: (request) => promoteUpload(avatarFiles.uploads, PromoteRequestSchema.parse(request)) },
    history: history.chat,
    diary: history.diary,
    paths: { cwd, backups: resolve(cwd, config.get('BACKUPS_DIR')) },
    metrics,
    memory,
    ...(options.componentRoots ? { roots: options.componentRoots } : {}),
    clock,
  });
  disposers.push(stopAssistant);
  await startAssistant();
  const audio = await startAudio({ config, logger, cwd, clock, body: bodyService.body, messaging });
  disposers.push(audio.stop);
  disposers.push(
    connectWebChat({
      components: messaging.components,
      webChat: messaging.webChat,
      vox: audio.vox,
      config,
      clock,
      metrics,
      archives: history.archives,
      history: history.chat,
    }),
  );
  return {
    config,
    database,
    logger,
    logTap: options.logTap,
    trust,
    listeners,
    gate: new SocketGate(trust, listeners.web, options.helloTimeoutMs ?? HELLO_TIMEOUT_MS, clock),
    activity: new ActivityLogRepository(database.db),
    runtime: { version: packageVersion, startedAt: new Date(clock.now()), ports: { http: null, https: null, compat: null } },
    lifecycle: options.lifecycle,
    paths: {
      cwd,
      backups: resolve(cwd, config.get('BACKUPS_DIR')),
      skins: resolve(cwd, config.get('SKINS_DIR')),
    },
    body: bodyService.body,
    avatarFiles,
    history,
    metrics,
    memory,
    ...messaging,
    audio,
    clock,
    disposers,
  };
}

/** Stops every service in reverse order of creation, then closes the database. */
export async function closeServices(services: Services): Promise<void> {
  await stopAll(services.disposers);
  await services.database.close();
}
