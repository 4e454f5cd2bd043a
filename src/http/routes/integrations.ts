import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IntegrationMessageSchema, InvalidIntegrationMessageError, type IngestResult } from '../../chain/integrations.ts';
import { AppError, badRequest } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { OUTBOX_MEDIA_PREFIX, originOf, reachableMedia } from '../outbox-media.ts';
import { sendSpeechFile } from '../speech-file.ts';

const SourceQuery = z.object({ source: IntegrationMessageSchema.shape.source });
const MediaParams = z.object({ file: z.string().max(128) });
const StoredQuery = SourceQuery.extend({ limit: z.coerce.number().int().min(1).max(500).default(100) });

export const integrationRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { integrations } = services;

  app.post(
    '/api/integrations/messages',
    { schema: { summary: 'Ingest an integration message: type chat enters the message chain, other types are stored', body: IntegrationMessageSchema } },
    async (request, reply) => {
      let result: IngestResult;
      try {
        result = await integrations.ingest(request.body);
      } catch (error) {
        if (error instanceof InvalidIntegrationMessageError) throw badRequest(error.message);
        throw error;
      }
      const chain = result.chain;
      if (chain?.status === 'rate_limited') {
        const seconds = Math.max(1, Math.ceil(chain.retryAfterMs / 1000));
        reply.header('retry-after', String(seconds));
        throw new AppError(429, 'rate_limited', `Too many messages from this user; retry in ${seconds} s`);
      }
      if (chain?.status === 'busy') throw new AppError(503, 'unavailable', 'This conversation has too many messages waiting; retry later');
      return reply.status(202).send({ accepted: true, id: result.id });
    },
  );

  app.get(
    '/api/integrations/outbox',
    { schema: { summary: "The source's queued outbound messages; the queue is emptied by the read", querystring: SourceQuery } },
    async (request) => {
      const origin = originOf(request);
      const messages = await integrations.takeOutbox(request.query.source);
      return { source: request.query.source, messages: messages.map((message) => reachableMedia(message, origin, services.audio.files)) };
    },
  );

  app.get(
    `${OUTBOX_MEDIA_PREFIX}:file`,
    { schema: { summary: "A speech file an outbox message links to (its payload.media); kept an hour, like Vox's other files", params: MediaParams } },
    (request, reply) => sendSpeechFile(reply, services.audio.files, request.params.file),
  );

  app.get(
    '/api/integrations/messages',
    { schema: { summary: 'Stored (non-chat) integration messages of one source, oldest first', querystring: StoredQuery } },
    async (request) => ({
      source: request.query.source,
      messages: await integrations.stored(request.query.source, request.query.limit),
    }),
  );
};
