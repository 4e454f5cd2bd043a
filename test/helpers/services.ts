import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Clock } from '../../src/body/clock.ts';
import type { ComponentRoots } from '../../src/components/discovery.ts';
import { ConfigStore } from '../../src/config/store.ts';
import { createLogger } from '../../src/logging.ts';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { buildApp, type App } from '../../src/app.ts';
import { buildCompatApp } from '../../src/compat/app.ts';
import type { DialectName } from '../../src/db/schema.ts';
import { closeServices, createServices, type Services } from '../../src/services.ts';
import { freshDatabase, type TestDatabase } from './dialects.ts';

export interface TestServices {
  services: Services;
  /** How many restarts were requested through the lifecycle. */
  restarts: () => number;
  cwd: string;
  close(): Promise<void>;
}

export interface TestServiceOptions {
  environment?: Record<string, string>;
  envFile?: Record<string, string>;
  /** Defaults to a fresh in-memory SQLite database. */
  databaseUrl?: string;
  helloTimeoutMs?: number;
  /** Component discovery folders; by default the empty temporary cwd, so no component loads. */
  componentRoots?: Partial<ComponentRoots>;
  logLevel?: string;
  /** Where the log lines go (JSON, one a line); by default stdout. Tests read what was logged here. */
  logDestination?: NodeJS.WritableStream;
  /** The components' clock (a ManualClock drives their timers by hand). */
  clock?: Clock;
}

/** Real services over a fresh database and a temporary working directory, closed by `close()`. */
export async function createTestServices(options: TestServiceOptions = {}): Promise<TestServices> {
  const cwd = await mkdtemp(join(tmpdir(), 'anima-test-'));
  // Memory is on in production; off here unless a suite turns it on, so a scripted model answers only the requests a suite expects.
  const config = ConfigStore.fromSources({ envFile: options.envFile ?? {}, environment: { MEMORY_ENABLED: 'false', ...options.environment } });
  const { logger, tap } = createLogger({
    level: options.logLevel ?? 'silent',
    pretty: false,
    ...(options.logDestination ? { destination: options.logDestination } : {}),
  });
  let restarts = 0;
  const services = await createServices({
    config,
    logger,
    logTap: tap,
    cwd,
    databaseUrl: options.databaseUrl ?? 'sqlite::memory:',
    lifecycle: {
      requestRestart: () => {
        restarts += 1;
      },
    },
    ...(options.helloTimeoutMs === undefined ? {} : { helloTimeoutMs: options.helloTimeoutMs }),
    ...(options.componentRoots === undefined ? {} : { componentRoots: options.componentRoots }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  return {
    services,
    restarts: () => restarts,
    cwd,
    close: async () => {
      await closeServices(services);
      await rm(cwd, { recursive: true, force: true });
    },
  };
}

export interface TestAppOptions extends TestServiceOptions {
  /** Each test starts the app itself through `start()`, with options of its own; else it starts before each test. */
  startInTest?: boolean;
  /** One app for the whole `describe` (before all, closed after all), for read-only suites. */
  once?: boolean;
  /** A fresh database of this dialect (dropped after) instead of in-memory SQLite. */
  dialect?: DialectName;
  /** Also build the compat app over the same services. */
  compat?: boolean;
  /** Listen on 127.0.0.1, port 0, for clients that need a real socket (see `ports`). */
  listen?: boolean;
}

export interface TestApp {
  readonly app: App;
  readonly harness: TestServices;
  /** The compat app, with `compat: true`. */
  readonly compat: App;
  /** The listening ports, with `listen: true` (compat 0 without `compat: true`). */
  readonly ports: { web: number; compat: number };
  /** Starts the app with these options over the suite's (environment entries merged); throws while one runs. */
  start(more?: TestServiceOptions): Promise<App>;
  /** Closes the apps and their services, so a test can start again over the same files or database. */
  stop(): Promise<void>;
}

/** The running pair; the apps stay unset while they are built, so a failed build still closes the services. */
interface Running {
  harness: TestServices;
  app?: App;
  compat?: App;
}

const portOf = (app: App | undefined) => (app ? (app.server.address() as AddressInfo).port : 0);

/**
 * A fresh web app over fresh services for each test of the enclosing `describe` (or one for all of them
 * with `once`), closed after it. Read the current pair through the returned getters (they change from
 * test to test). Hooks run in the order they were registered and after-hooks in reverse (vitest's
 * `sequence.hooks: 'stack'`), so a suite's own clean-up registered before this call runs after the app
 * has closed, and one registered after it runs before.
 */
export function useTestApp(options: TestAppOptions = {}): TestApp {
  const { startInTest = false, once = false, dialect, compat: withCompat = false, listen = false, ...serviceOptions } = options;
  const [before, after] = once ? [beforeAll, afterAll] : [beforeEach, afterEach];
  let database: TestDatabase | undefined;
  let current: Running | undefined;

  const get = () => {
    if (!current?.app) throw new Error(startInTest ? 'useTestApp: call start() first' : 'useTestApp: only inside a test');
    return { ...current, app: current.app };
  };
  const stop = async () => {
    const stopping = current;
    current = undefined;
    if (!stopping) return;
    await stopping.app?.close();
    await stopping.compat?.close();
    await stopping.harness.close();
  };
  const start = async (more: TestServiceOptions = {}) => {
    if (current) throw new Error('useTestApp: already started; stop() first');
    const harness = await createTestServices({
      ...serviceOptions,
      ...(database ? { databaseUrl: database.url } : {}),
      ...more,
      environment: { ...serviceOptions.environment, ...more.environment },
    });
    const started: Running = { harness };
    current = started;
    const app = await buildApp(harness.services);
    started.app = app;
    if (withCompat) started.compat = await buildCompatApp(harness.services);
    if (listen) {
      await app.listen({ host: '127.0.0.1', port: 0 });
      await started.compat?.listen({ host: '127.0.0.1', port: 0 });
    }
    return app;
  };

  before(async () => {
    if (dialect) database = await freshDatabase(dialect);
    if (!startInTest) await start();
  });
  after(async () => {
    await stop();
    await database?.drop();
    database = undefined;
  });
  return {
    get app() {
      return get().app;
    },
    get harness() {
      return get().harness;
    },
    get compat() {
      const { compat } = get();
      if (!compat) throw new Error('useTestApp: no compat app without compat: true');
      return compat;
    },
    get ports() {
      const { app, compat } = get();
      if (!listen) throw new Error('useTestApp: no ports without listen: true');
      return { web: portOf(app), compat: portOf(compat) };
    },
    start,
    stop,
  };
}
