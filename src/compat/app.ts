import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../errors.ts';
import { createFastify } from '../http/create-fastify.ts';
import { isListedOrigin } from '../http/local-origin.ts';
import { registerRateLimit } from '../http/rate-limit.ts';
import { guardRoutes, isReadRequest } from '../http/route-trust.ts';
import type { Services } from '../services.ts';
import { installCompatErrorHandlers } from './errors.ts';
import { modelRoutes } from './routes/models.ts';
import { ollamaChatRoutes } from './routes/ollama-chat.ts';
import { openAiChatRoutes } from './routes/openai-chat.ts';

/**
 * The Ollama-compatible app of port 11435 (and OpenAI's chat completions). Main listens; the chat
 * routes answer through the compat interface component, and 503 while it is not loaded.
 */
export async function buildCompatApp(services: Services): Promise<FastifyInstance> {
  const app = createFastify(services, 'compat');
  installCompatErrorHandlers(app);
  // JSON bodies only: a form or plain-text post is what any web page can send without asking.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(/^application\/(?:[\w.-]+\+)?json\b/, { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, body === '' ? undefined : JSON.parse(body as string));
    } catch {
      done(badRequest('invalid character in the JSON body'), undefined);
    }
  });
  const { listeners } = services;
  // CORS answers only for the allowed origins; the preflight itself needs no trust.
  await app.register(cors, {
    origin: (origin, callback) => callback(null, origin !== undefined && isListedOrigin(origin, listeners.compat.allowedOrigins())),
    methods: ['GET', 'HEAD', 'POST', 'DELETE', 'OPTIONS'],
  });
  await registerRateLimit(app, services.config);
  guardRoutes(app, {
    policy: services.trust,
    listener: listeners.compat,
    isPublic: (request) => request.method === 'OPTIONS' || (isReadRequest(request) && request.routeOptions.url === '/'),
  });
  // Streams in progress would hold the listener open until the model finished: they end with their final
  // chunk. Then the connections go too: a client that left one open would hold the close until the header timeout.
  app.addHook('preClose', async () => {
    await services.compat.cancelAll();
    app.server.closeAllConnections();
  });

  app.get('/', async (_request, reply) => reply.type('text/plain').send('Ollama is running'));
  await app.register(modelRoutes, { services });
  await app.register(ollamaChatRoutes, { services });
  await app.register(openAiChatRoutes, { services });
  return app;
}
