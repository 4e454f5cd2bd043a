import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { Services } from '../services.ts';

/** The OpenAPI document of the web port, generated from the routes' zod schemas, at /api/docs. */
export async function registerApiDocs(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Anima', description: 'Avatar body, chat, components and audio API of Anima.', version: services.runtime.version },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'APP_API_KEY or a session token' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        },
      },
      security: [{ bearer: [] }, { apiKey: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
}
