import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import { installOllamaErrorHandlers } from '../errors.ts';
import { createFastify } from '../http/create-fastify.ts';
import type { Services } from '../services.ts';

/** The Ollama version string reported to clients that check for a minimum server version. */
export const REPORTED_OLLAMA_VERSION = '0.12.0';

/** The Ollama-compatible app of port 11435. Errors use Ollama's `{error}` shape. */
export async function buildCompatApp(services: Services): Promise<FastifyInstance> {
  const app = createFastify(services, 'compat');
  installOllamaErrorHandlers(app);
  // Browser-based clients call from their own origin; trust still applies to everything but the probe.
  await app.register(cors, { origin: true, methods: ['GET', 'HEAD', 'POST', 'DELETE', 'OPTIONS'] });

  app.addHook('onRequest', async (request) => {
    const probe = request.url === '/' && (request.method === 'GET' || request.method === 'HEAD');
    if (!probe && request.method !== 'OPTIONS') services.trust.assertTrusted(request);
  });

  app.get('/', async (_request, reply) => reply.type('text/plain').send('Ollama is running'));
  app.get('/api/version', async () => ({ version: REPORTED_OLLAMA_VERSION }));
  return app;
}
