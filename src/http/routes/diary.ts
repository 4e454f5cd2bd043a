import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../services.ts';
import { limitSchema } from '../history-query.ts';

export const DiaryEntrySchema = z.object({
  id: z.number(),
  created_at: z.string(),
  interface_path: z.string().nullable(),
  text: z.string(),
  tags: z.array(z.string()),
  archived: z.boolean(),
});

const IdsSchema = z.object({ ids: z.array(z.number().int().positive()).min(1).max(1000) });

const DiaryQuerySchema = z.object({
  archived: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
  limit: limitSchema(200, 1000),
});

export const diaryRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { diary } = services.history;

  app.get(
    '/api/diary',
    {
      schema: {
        summary: 'Diary entries, newest first; ?archived=true|false filters',
        querystring: DiaryQuerySchema,
        response: { 200: z.object({ entries: z.array(DiaryEntrySchema) }) },
      },
    },
    async (request) => {
      const { archived, limit } = request.query;
      return { entries: await diary.list(archived === undefined ? { limit } : { limit, archived }) };
    },
  );

  app.post(
    '/api/diary/archive',
    { schema: { summary: 'Archive diary entries', body: IdsSchema, response: { 200: z.object({ success: z.boolean(), updated: z.number() }) } } },
    async (request) => ({ success: true, updated: await diary.setArchived(request.body.ids, true) }),
  );

  app.post(
    '/api/diary/unarchive',
    { schema: { summary: 'Unarchive diary entries', body: IdsSchema, response: { 200: z.object({ success: z.boolean(), updated: z.number() }) } } },
    async (request) => ({ success: true, updated: await diary.setArchived(request.body.ids, false) }),
  );

  app.delete(
    '/api/diary/archive',
    {
      schema: {
        summary: 'Delete archived diary entries: those in {ids}, or all of them without a body',
        body: IdsSchema.nullish(),
        response: { 200: z.object({ success: z.boolean(), deleted: z.number() }) },
      },
    },
    async (request) => ({ success: true, deleted: await diary.deleteArchived(request.body?.ids) }),
  );
};
