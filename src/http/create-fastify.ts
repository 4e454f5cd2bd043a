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
export function createFastify(services: Services, listener: string, https?: { cert: Buffer; key: Buffer }): FastifyInstance {
  const app = Fastify({
    loggerInstance: services.logger.child({ listener }) as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyRequestLogger,
    bodyLimit: services.config.get('APP_BODY_LIMIT_BYTES'),
    // Errors found before routing (a malformed URL) go through the app's own error handler and shape.
    frameworkErrors: (error, request, reply) => void reply.server.errorHandler.call(reply.server, error, request, reply),
    ...(https ? { https } : {}),
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
  return app;
}
