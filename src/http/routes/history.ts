import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { INTERFACE_PATH_MAX } from '../../history/interface-path.ts';
import type { Services } from '../../services.ts';
import { limitSchema, SinceSchema, toIsoMillis } from '../history-query.ts';
import { DiaryEntrySchema } from './diary.ts';

const ChatQuerySchema = z.object({
  interface_path: z.string().min(1).max(INTERFACE_PATH_MAX).optional(),
  since: SinceSchema.optional(),
  limit: limitSchema(100, 1000),
});

const LogQuerySchema = z.object({
  since: SinceSchema.optional(),
  limit: limitSchema(100, 1000),
});

const ActivityQuerySchema = LogQuerySchema.extend({ kind: z.string().min(1).max(64).optional() });

/** Contract: `{messages: [{id, interface_path, username, sender_id, text, timestamp}]}` oldest first. */
const RawChatMessageSchema = z.object({
  id: z.number(),
  interface_path: z.string(),
  username: z.string(),
  sender_id: z.string().nullable(),
  text: z.string(),
  timestamp: z.string(),
});

const ActivityEntrySchema = z.object({ id: z.number(), created_at: z.string(), kind: z.string(), message: z.string(), data: z.unknown() });

export const historyRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/api/history/chat',
    {
      schema: {
        summary: 'Raw chat history, oldest first: one conversation (interface_path) or all',
        querystring: ChatQuerySchema,
        response: { 200: z.object({ messages: z.array(RawChatMessageSchema) }) },
      },
    },
    async (request) => {
      const { interface_path: interfacePath, since, limit } = request.query;
      return {
        messages: await services.history.chat.list({ limit, ...(interfacePath ? { interface_path: interfacePath } : {}), ...(since ? { since } : {}) }),
      };
    },
  );

  app.get(
    '/api/history/diary',
    {
      schema: {
        summary: 'Diary history (archived entries included), newest first',
        querystring: LogQuerySchema,
        response: { 200: z.object({ entries: z.array(DiaryEntrySchema) }) },
      },
    },
    async (request) => {
      const { since, limit } = request.query;
      return { entries: await services.history.diary.list(since ? { limit, since: toIsoMillis(since) } : { limit }) };
    },
  );

  app.get(
    '/api/history/activity',
    {
      schema: {
        summary: 'Activity log entries, newest first',
        querystring: ActivityQuerySchema,
        response: { 200: z.object({ entries: z.array(ActivityEntrySchema) }) },
      },
    },
    async (request) => {
      const { since, limit, kind } = request.query;
      return { entries: await services.activity.list({ limit, ...(since ? { since: toIsoMillis(since) } : {}), ...(kind ? { kind } : {}) }) };
    },
  );
};
