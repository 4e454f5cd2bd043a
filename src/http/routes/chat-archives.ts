import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, notFound } from '../../errors.ts';
import { ArchiveSummarySchema, CorruptArchiveError } from '../../history/archive-store.ts';
import type { Services } from '../../services.ts';
import { resolveWebSession, SessionQuerySchema } from './chat-session.ts';

/** Any text is accepted here: an id that names no archive file is a 404, whatever its characters. */
const ArchiveParams = z.object({ archive_id: z.string().min(1).max(200) });
const RenameSchema = z.object({ name: z.string().trim().min(1).max(200) });
const RestoreSchema = z.object({ archive_id: z.string().min(1).max(200) });

function unknownArchive(id: string): AppError {
  return notFound(`Unknown chat archive: ${id}`);
}

/** A restore or rename of a file that is no archive: the request is fine, the stored file is not. */
async function readable<T>(task: Promise<T>): Promise<T> {
  try {
    return await task;
  } catch (error) {
    if (error instanceof CorruptArchiveError) throw new AppError(409, 'conflict', error.message);
    throw error;
  }
}

export const chatArchiveRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { archives } = services.history;

  app.post(
    '/api/chat/archive',
    {
      schema: {
        summary: 'Archive the current web chat and clear it; archive_id is null when the chat was empty',
        querystring: SessionQuerySchema,
        response: { 200: z.object({ success: z.boolean(), archive_id: z.string().nullable() }) },
      },
    },
    async (request) => {
      const archiveId = await archives.archive(resolveWebSession(services, request.query.session_id));
      return { success: archiveId !== null, archive_id: archiveId };
    },
  );

  app.get(
    '/api/chat/archives',
    { schema: { summary: 'Chat archives, newest first', response: { 200: z.object({ archives: z.array(ArchiveSummarySchema) }) } } },
    async () => ({ archives: await archives.list() }),
  );

  app.get('/api/chat/archives/:archive_id', { schema: { summary: 'Download one chat archive (JSON)', params: ArchiveParams } }, async (request, reply) => {
    const { archive_id: id } = request.params;
    const file = await archives.download(id);
    if (!file) throw unknownArchive(id);
    return reply.header('content-type', 'application/json; charset=utf-8').header('content-disposition', `attachment; filename="${id}.json"`).send(file);
  });

  app.delete(
    '/api/chat/archives/:archive_id',
    { schema: { summary: 'Delete one chat archive', params: ArchiveParams, response: { 200: z.object({ success: z.boolean(), archive_id: z.string() }) } } },
    async (request) => {
      const { archive_id: id } = request.params;
      if (!(await archives.remove(id))) throw unknownArchive(id);
      return { success: true, archive_id: id };
    },
  );

  app.post(
    '/api/chat/archives/:archive_id/rename',
    {
      schema: {
        summary: 'Rename one chat archive',
        params: ArchiveParams,
        body: RenameSchema,
        response: { 200: ArchiveSummarySchema.extend({ success: z.boolean() }) },
      },
    },
    async (request) => {
      const { archive_id: id } = request.params;
      const renamed = await readable(archives.rename(id, request.body.name));
      if (!renamed) throw unknownArchive(id);
      return { success: true, ...renamed };
    },
  );

  app.post(
    '/api/chat/restore',
    {
      schema: {
        summary: 'Archive the current web chat, then restore an archive into it and send it to the web clients',
        querystring: SessionQuerySchema,
        body: RestoreSchema,
        response: { 200: z.object({ success: z.boolean(), restored: z.number(), archived_current: z.string().nullable() }) },
      },
    },
    async (request) => {
      const session = resolveWebSession(services, request.query.session_id);
      const result = await readable(archives.restore(request.body.archive_id, session));
      if (!result) throw unknownArchive(request.body.archive_id);
      return { success: true, ...result };
    },
  );
};
