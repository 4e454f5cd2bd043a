import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { DISABLED } from './audio/engine-registry.ts';
import { buildCompatApp } from './compat/app.ts';
import { refuseUnknownEngines, type EngineCatalogue, type EngineChoice } from './config/engine-choices.ts';
import { loadConfig } from './config/load.ts';
import { collidingListener, LISTENER_PORTS, type ListenerPort } from './config/ports.ts';
import { blaming, savedEntriesToBlame, StartStepError } from './config/start-fallback.ts';
import { InvalidConfigurationError, type ConfigStore } from './config/store.ts';
import { DatabaseOpenError } from './db/open-errors.ts';
import { createLogger, followLogLevel, type LogTap, type Logger } from './logging.ts';
import { closeServices, createServices, type Lifecycle, type Services } from './services.ts';
import { isLoopbackAddress } from './trust.ts';
import { ensureWebuiBuilt } from './system/webui-build.ts';

export interface RunningAnima {
  services: Services;
  close(): Promise<void>;
}

function urlOf(scheme: 'http' | 'https', host: string, port: number): string {
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `${scheme}://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}/`;
}

async function listen(
  app: FastifyInstance,
  config: ConfigStore,
  listener: { host: 'APP_WEBUI_HOST' | 'COMPAT_HOST'; port: ListenerPort; what: string },
): Promise<number> {
  const [host, port] = [config.get(listener.host), config.get(listener.port)];
  try {
    await app.listen({ host, port });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'EADDRINUSE') {
      throw new StartStepError(
        [listener.port],
        `${listener.what} port ${port} on ${host} is in use: stop the other process or set ${listener.port} to another port (0 picks a free one)`,
        { cause: error },
      );
    }
    // A privileged port is the port's fault; anything else (an address this machine lacks) may be the host's.
    const keys = code === 'EACCES' ? [listener.port] : [listener.host, listener.port];
    throw new StartStepError(keys, `${listener.what} cannot listen on ${host} port ${port} (check ${keys.join(' and ')}): ${(error as Error).message}`, {
      cause: error,
    });
  }
  return (app.server.address() as AddressInfo).port;
}

const TLS_KEYS = ['APP_WEBUI_TLS_CERT', 'APP_WEBUI_TLS_KEY'] as const;

/** Two listeners on one port: the second would fail after the first is up, so refuse before either. */
function refuseSharedPorts(config: ConfigStore, listeners: readonly ListenerPort[]): void {
  for (const key of listeners) {
    const other = collidingListener(config, key, config.get(key), listeners);
    if (other) throw new StartStepError([key, other], `${key} and ${other} are both ${config.get(key)}: two listeners cannot share a port`);
  }
}

function tlsFiles(config: ConfigStore, cwd: string, log: Logger): { cert: Buffer; key: Buffer } | undefined {
  const cert = config.get('APP_WEBUI_TLS_CERT');
  const key = config.get('APP_WEBUI_TLS_KEY');
  if (cert === '' || key === '') return undefined;
  const [certPath, keyPath] = [resolve(cwd, cert), resolve(cwd, key)];
  if (!existsSync(certPath) || !existsSync(keyPath)) {
    log.warn({ cert: certPath, key: keyPath }, 'HTTPS disabled: APP_WEBUI_TLS_CERT or APP_WEBUI_TLS_KEY names a missing file');
    return undefined;
  }
  return { cert: readFileSync(certPath), key: readFileSync(keyPath) };
}

/** The engines one audio registry holds (aliases and external endpoints included), as a choice is checked against them. */
function audioEngines(kind: string, registry: { names(): string[]; resolve(name: string): string | undefined }): EngineCatalogue {
  return { kind, names: () => registry.names(), has: (name) => registry.resolve(name) !== undefined };
}

/** Every variable that names an engine, with the engines of its kind that this process has. */
function engineChoices(services: Services): EngineChoice[] {
  const { config, audio } = services;
  const named = (value: string) => (value.trim() === '' || value.trim().toLowerCase() === DISABLED ? undefined : value.trim());
  const vox = audioEngines('Vox', audio.engines.vox);
  const overrides = Object.values(config.get('VOX_LANGUAGE_OVERRIDES'));
  return [
    services.cortex.choice(),
    { key: 'ACTIVE_VOX_ENGINE', name: named(config.get('ACTIVE_VOX_ENGINE')), none: 'disabled', engines: vox },
    ...overrides.map((entry): EngineChoice => ({ key: 'VOX_LANGUAGE_OVERRIDES', name: named(entry.engine), none: 'disabled', engines: vox })),
    { key: 'RADIO_HOST_VOX_ENGINE', name: named(config.get('RADIO_HOST_VOX_ENGINE')), none: 'empty for the active Vox engine', engines: vox },
    { key: 'ACTIVE_AURIS_ENGINE', name: named(config.get('ACTIVE_AURIS_ENGINE')), none: 'disabled', engines: audioEngines('Auris', audio.engines.auris) },
    { key: 'LIVE_CORTEX', name: named(config.get('LIVE_CORTEX')), none: 'disabled', engines: audioEngines('Live', audio.engines.live) },
  ];
}

interface StartOptions {
  config: ConfigStore;
  logger: Logger;
  logTap: LogTap;
  lifecycle: Lifecycle;
  cwd?: string;
}

/** Builds the services and both apps, and listens. Closing reverses it: listeners first, database last. */
export async function startAnima(options: StartOptions): Promise<RunningAnima> {
  const { config, logger } = options;
  const services = await createServices(options);
  // Saved entries are known only now; a saved LOGGING_LEVEL applies from here on.
  logger.level = config.get('LOGGING_LEVEL');
  followLogLevel(config, logger);
  const apps: FastifyInstance[] = [];
  const close = async () => {
    for (const app of apps.reverse()) await app.close();
    await closeServices(services);
  };
  try {
    refuseUnknownEngines(engineChoices(services));
    const webHost = config.get('APP_WEBUI_HOST');
    const tls = await blaming(TLS_KEYS, () => tlsFiles(config, services.paths.cwd, logger));
    refuseSharedPorts(config, tls ? LISTENER_PORTS : ['APP_WEBUI_HTTP_PORT', 'COMPAT_API_SERVER_PORT']);

    const web = await buildApp(services);
    apps.push(web);
    services.runtime.ports.http = await listen(web, config, { host: 'APP_WEBUI_HOST', port: 'APP_WEBUI_HTTP_PORT', what: 'Web' });

    if (tls) {
      const secure = await blaming(TLS_KEYS, () => buildApp(services, { https: tls }));
      apps.push(secure);
      services.runtime.ports.https = await listen(secure, config, { host: 'APP_WEBUI_HOST', port: 'APP_WEBUI_HTTPS_PORT', what: 'HTTPS' });
    }

    const compatHost = config.get('COMPAT_HOST');
    const compat = await buildCompatApp(services);
    apps.push(compat);
    services.runtime.ports.compat = await listen(compat, config, { host: 'COMPAT_HOST', port: 'COMPAT_API_SERVER_PORT', what: 'Compatibility' });

    const { ports } = services.runtime;
    const webUrl = urlOf('http', webHost, ports.http ?? 0);
    const compatUrl = urlOf('http', compatHost, ports.compat ?? 0);
    const httpsUrl = ports.https === null ? undefined : urlOf('https', webHost, ports.https);
    logger.info(
      { web: webUrl, https: httpsUrl, compat: compatUrl, database: services.database.dialect },
      `Anima is running: web UI ${webUrl}${httpsUrl ? ` (HTTPS ${httpsUrl})` : ''}, Ollama-compatible API ${compatUrl}`,
    );
    const exposed = [webHost, compatHost].filter((host) => !isLoopbackAddress(host) && host !== 'localhost');
    if (exposed.length > 0 && config.get('APP_API_KEY') === '') {
      logger.warn({ hosts: exposed }, 'Listening on a non-loopback address without APP_API_KEY: only loopback clients are trusted');
    }
    return { services, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Starts; when saved entries made the start fail (saved values win over .env and the environment, so
 * nothing else could undo them), sets them aside and starts again on the .env, environment or default
 * values. They stay saved and are shown as ignored on the configuration page until the user saves or
 * resets them. Each round sets aside at least one more saved entry, so it ends.
 */
async function startWithFallback(first: ConfigStore, options: Omit<StartOptions, 'config'>): Promise<RunningAnima> {
  const setAside = new Map<string, string>();
  let config = first;
  for (;;) {
    try {
      return await startAnima({ ...options, config });
    } catch (error) {
      const blamed = savedEntriesToBlame(config, error);
      if (blamed.length === 0) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      for (const key of blamed) {
        setAside.set(key, reason);
        options.logger.warn(
          { key, reason },
          `Ignoring the saved ${key} (${reason}); starting with its .env, environment or default value. It stays saved until you save or reset it on the configuration page.`,
        );
      }
      // A fresh store: the failed start left its services' listeners on the old one.
      config = loadConfig({ cwd: options.cwd });
      for (const [key, why] of setAside) config.setAsideSaved(key, why);
    }
  }
}

/**
 * A failure whose message says what to change (a variable's value, the database DATABASE_URL names) is
 * one line; its detail goes to debug. Anything else keeps its stack: it is a bug to report.
 */
function logStartFailure(logger: Logger, error: unknown): void {
  if (error instanceof StartStepError || error instanceof DatabaseOpenError) {
    logger.debug({ err: error }, 'why the start failed');
    logger.fatal(error.message);
    return;
  }
  logger.fatal({ err: error }, error instanceof Error ? error.message : 'start failed');
}

/** The command line: start, restart in place on request, close gracefully on SIGINT/SIGTERM. */
async function runCli(): Promise<void> {
  let config: ConfigStore;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof InvalidConfigurationError)) throw error;
    process.stderr.write(`${error.message}\nFix the values in .env or the environment (see .env.example).\n`);
    process.exit(1);
  }
  const { logger, tap } = createLogger({ level: config.get('LOGGING_LEVEL'), pretty: config.get('LOG_FORMAT') === 'pretty' });

  let running: RunningAnima | undefined;
  let transition: Promise<void> = Promise.resolve();
  const lifecycle: Lifecycle = {
    requestRestart: () => {
      transition = transition.then(async () => {
        logger.info('restarting in place');
        await running?.close();
        running = await startWithFallback(loadConfig(), { logger, logTap: tap, lifecycle });
      });
      transition.catch((error: unknown) => {
        logStartFailure(logger, error);
        logger.flush();
        process.exit(1);
      });
    },
  };

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    void transition
      .then(() => running?.close())
      .then(() => {
        logger.info('stopped');
        logger.flush();
        process.exit(0);
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  try {
    await ensureWebuiBuilt(logger);
    running = await startWithFallback(config, { logger, logTap: tap, lifecycle });
  } catch (error) {
    logStartFailure(logger, error);
    logger.flush();
    process.exit(1);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await runCli();
}
