import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Services } from '../services.ts';
import { lazyRequestLogger } from './request-logger.ts';
import { recordRoutes } from './route-inventory.ts';

/**
 * A Fastify instance with what both listeners share: the process logger, the body limit, zod schemas,
 * and no per-request info lines (errors are still logged, with the request id). HTTPS and HTTP share one
 * instance type here; nothing above depends on the raw server's class.
 */
export function createFastify(services: Services, listener: string, options: FastifyOptions = {}): FastifyInstance {
  const { https, shortcut } = options;
  const timeouts = slowClientTimeouts(services);
  const app = Fastify({
    loggerInstance: services.logger.child({ listener }) as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyRequestLogger,
    bodyLimit: services.config.get('APP_BODY_LIMIT_BYTES'),
    // Errors found before routing (a malformed URL) go through the app's own error handler and shape.
    frameworkErrors: (error, request, reply) => void reply.server.errorHandler.call(reply.server, error, request, reply),
    requestTimeout: timeouts.requestTimeout,
    http: timeouts,
    ...(https ? { https: { ...https, ...timeouts } } : {}),
  }) as unknown as FastifyInstance;
  recordRoutes(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // A request still running at shutdown finishes, and its keep-alive connection must not hold the
  // server open afterwards.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  if (shortcut) answerBeforeRouting(app.server, shortcut, () => closing);
  return app;
}

/** Answers a request before Fastify sees it and returns true, or returns false and leaves it untouched. */
export type RequestShortcut = (request: IncomingMessage, response: ServerResponse) => boolean;

export interface FastifyOptions {
  https?: { cert: Buffer; key: Buffer };
  /** A read too hot for Fastify's per-request machinery, answered ahead of it. */
  shortcut?: RequestShortcut;
}

/**
 * Puts the shortcut ahead of Fastify's handler on the server's `request` event. What it declines, and
 * everything once the app closes (Fastify's 503 and `connection: close`), goes to Fastify; so does a
 * request it failed on before answering, which Fastify's route then answers or turns into a logged 500
 * (a throw here would take the process down).
 */
function answerBeforeRouting(server: Server, shortcut: RequestShortcut, closing: () => boolean): void {
  const handlers = server.listeners('request') as ((request: IncomingMessage, response: ServerResponse) => void)[];
  const [routed] = handlers;
  if (handlers.length !== 1 || !routed) throw new Error(`expected Fastify's one request handler, found ${handlers.length}`);
  server.removeListener('request', routed);
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    let answered: boolean;
    try {
      answered = !closing() && shortcut(request, response);
    } catch {
      answered = response.headersSent;
    }
    if (!answered) routed(request, response);
  });
}

/**
 * Node's own limits on a client that sends slowly (slowloris, an upload that stops halfway): the headers
 * within APP_HEADERS_TIMEOUT_S, the whole request within APP_REQUEST_TIMEOUT_S, else 408 and the socket
 * is closed, which fails a half-received upload and removes its staged file. Node checks them on its own
 * timer, every second here (its default of 30 s would let a slow client stay well past its limit).
 */
function slowClientTimeouts(services: Services) {
  const requestTimeout = services.config.get('APP_REQUEST_TIMEOUT_S') * 1000;
  // Node refuses a headers limit beyond the request's.
  const headersTimeout = Math.min(services.config.get('APP_HEADERS_TIMEOUT_S') * 1000, requestTimeout);
  return { requestTimeout, headersTimeout, connectionsCheckingInterval: Math.min(1000, headersTimeout) };
}
