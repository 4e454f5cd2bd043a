import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest, notFound } from '../../errors.ts';
import { SessionMetadataSchema } from '../../history/session-meta.ts';
import { UnknownSessionError, type WebSession } from '../../history/web-session.ts';
import type { Services } from '../../services.ts';

const METADATA_MAX_BYTES = 16 * 1024;

/** Every chat endpoint acts on the persistent web session; under MULTI_SESSION, on `?session_id=`. */
export const SessionQuerySchema = z.object({ session_id: z.string().min(1).max(128).optional() });

export function resolveWebSession(services: Services, sessionId: string | undefined): WebSession {
  try {
    return services.history.sessions.resolve(sessionId);
  } catch (error) {
    if (!(error instanceof UnknownSessionError)) throw error;
    throw sessionId === undefined ? badRequest(error.message) : notFound(error.message);
  }
}

const MetadataBodySchema = SessionMetadataSchema.refine((value) => Buffer.byteLength(JSON.stringify(value)) <= METADATA_MAX_BYTES, {
  message: `Session metadata is limited to ${METADATA_MAX_BYTES} bytes of JSON`,
});

const SessionMetaResponseSchema = z.object({
  session_id: z.string(),
  interface_path: z.string(),
  metadata: SessionMetadataSchema,
  updated_at: z.string().nullable(),
});

export const chatSessionRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { sessionMeta } = services.history;

  app.get(
    '/api/chat/session_meta',
    { schema: { summary: 'Metadata of the current web chat session', querystring: SessionQuerySchema, response: { 200: SessionMetaResponseSchema } } },
    async (request) => {
      const session = resolveWebSession(services, request.query.session_id);
      return { ...session, ...(await sessionMeta.get(session.interface_path)) };
    },
  );

  app.post(
    '/api/chat/session_meta',
    {
      schema: {
        summary: 'Merge metadata into the current web chat session (a null value removes its key)',
        querystring: SessionQuerySchema,
        body: MetadataBodySchema,
        response: { 200: SessionMetaResponseSchema },
      },
    },
    async (request) => {
      const session = resolveWebSession(services, request.query.session_id);
      return { ...session, ...(await sessionMeta.update(session.interface_path, request.body)) };
    },
  );
};
