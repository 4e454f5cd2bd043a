import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../services.ts';

const SessionGrantSchema = z.object({ session_id: z.string(), token: z.string(), expires_at: z.string() });

export const sessionRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.post(
    '/api/session',
    { schema: { summary: 'Issue a session token (valid 24 h) for the web UI and socket hellos', response: { 200: SessionGrantSchema } } },
    async () => services.trust.tokens.issue(),
  );
};
