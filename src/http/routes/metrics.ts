import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../services.ts';

/** GET /api/metrics: Prometheus text format (contract "Face and voice"). */
export const metricsRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.get('/api/metrics', { schema: { summary: 'Stage latencies, sockets and queues in Prometheus text format' } }, async (_request, reply) =>
    reply.type(services.metrics.contentType).send(await services.metrics.text()),
  );
};
