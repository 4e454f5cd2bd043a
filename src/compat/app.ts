import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../errors.ts';
import { createFastify } from '../http/create-fastify.ts';
import type { Services } from '../services.ts';
import { unauthorized } from '../trust.ts';
import { compatBridgeIfLoaded } from './compat-interface.ts';
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
  // Like Ollama, every body is JSON whatever its content type says (curl -d sends a form type).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, body === '' ? undefined : JSON.parse(body as string));
    } catch {
      done(badRequest('invalid character in the JSON body'), undefined);
    }
  });
  // Browser-based clients call from their own origin; trust still applies to everything but the probe.
  await app.register(cors, { origin: true, methods: ['GET', 'HEAD', 'POST', 'DELETE', 'OPTIONS'] });

  app.addHook('onRequest', (request, _reply, done) => {
    const probe = request.url === '/' && (request.method === 'GET' || request.method === 'HEAD');
    if (!probe && request.method !== 'OPTIONS' && !services.trust.isTrusted(request)) return done(unauthorized());
    done();
  });
  // Streams in progress would hold the listener open until the model finished: they end with their final
  // chunk. Then the connections go too: a client that left one open would hold the close until the header timeout.
  app.addHook('preClose', async () => {
    await compatBridgeIfLoaded(services.assistant.components)?.cancelAll();
    app.server.closeAllConnections();
  });

  app.get('/', async (_request, reply) => reply.type('text/plain').send('Ollama is running'));
  await app.register(modelRoutes, { services });
  await app.register(ollamaChatRoutes, { services });
  await app.register(openAiChatRoutes, { services });
  return app;
}
