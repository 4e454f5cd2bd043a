import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ComponentRoots } from '../../src/components/discovery.ts';
import { ConfigStore } from '../../src/config/store.ts';
import { createLogger } from '../../src/logging.ts';
import { afterEach, beforeEach } from 'vitest';
import { buildApp, type App } from '../../src/app.ts';
import { closeServices, createServices, type Services } from '../../src/services.ts';

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
}

/** Real services over a fresh database and a temporary working directory, closed by `close()`. */
export async function createTestServices(options: TestServiceOptions = {}): Promise<TestServices> {
  const cwd = await mkdtemp(join(tmpdir(), 'anima-test-'));
  const config = ConfigStore.fromSources({ envFile: options.envFile ?? {}, environment: options.environment ?? {} });
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

/**
 * A fresh web app over fresh services for each test of the enclosing `describe`, closed after it. Read
 * the current pair through the returned getters (they change from test to test).
 */
export function useTestApp(options: TestServiceOptions = {}): { readonly app: App; readonly harness: TestServices } {
  let current: { app: App; harness: TestServices } | undefined;
  beforeEach(async () => {
    const harness = await createTestServices(options);
    current = { harness, app: await buildApp(harness.services) };
  });
  afterEach(async () => {
    await current?.app.close();
    await current?.harness.close();
    current = undefined;
  });
  const get = () => {
    if (!current) throw new Error('useTestApp: only inside a test');
    return current;
  };
  return {
    get app() {
      return get().app;
    },
    get harness() {
      return get().harness;
    },
  };
}
