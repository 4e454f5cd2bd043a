import { createReadStream } from 'node:fs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ComponentRouteError } from '../../components/contract.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { isApiRoute } from '../route-trust.ts';

/**
 * The routes components declare (the weather, the manual engine's answers). Registered for every
 * component that loaded its module, gated or not, since routes cannot be added after start; while the
 * component is not loaded they answer 503.
 */
export const componentProvidedRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  for (const entry of services.components.list()) {
    for (const route of entry.instance?.routes ?? []) {
      // Outside /api a GET would be public, like a skin file: a component's route always needs trust.
      if (!isApiRoute(route.path)) {
        services.logger.warn({ component: entry.name, path: route.path }, 'ignoring a component route outside /api/');
        continue;
      }
      app.route({
        method: route.method,
        url: route.path,
        schema: { summary: `${route.summary} (${entry.kind} ${entry.name})` },
        handler: async (request, reply) => {
          if (entry.status !== 'loaded') {
            const reason = `${entry.name} is not loaded${entry.reason ? `: ${entry.reason}` : ''}`;
            if (!route.unloaded) throw new AppError(503, 'unavailable', reason);
            const result = route.unloaded(reason);
            return reply.status(result.status ?? 200).send(result.body);
          }
          try {
            const result = await route.handle({ query: request.query, body: request.body });
            if (result.file)
              return reply
                .status(result.status ?? 200)
                .type(result.file.contentType)
                .send(createReadStream(result.file.path));
            return reply.status(result.status ?? 200).send(result.body);
          } catch (error) {
            if (error instanceof ComponentRouteError) throw new AppError(error.statusCode, error.code, error.message);
            throw error;
          }
        },
      });
    }
  }
};
