import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../services.ts';

const StreamStatusSchema = z.object({
  enabled: z.boolean(),
  muted: z.boolean(),
  interval_s: z.number(),
  waiting: z.number(),
  answering: z.object({ interface_path: z.string(), sender_name: z.string(), text: z.string() }).nullable(),
  received: z.number(),
  answered: z.number(),
  filtered: z.number(),
  dropped: z.number(),
  skipped: z.number(),
});

/** Absent `muted` toggles, so a stream deck's one button both mutes and unmutes. */
const MuteSchema = z.object({ muted: z.boolean().optional() }).strict().nullish();

/** Stream mode's controls for a stream deck: its status, a microphone mute and "skip this". */
export const streamRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { stream } = services;

  app.get(
    '/api/stream',
    { schema: { summary: 'Stream mode: whether it is on or muted, what waits, what is being answered', response: { 200: StreamStatusSchema } } },
    async () => stream.status(),
  );

  app.post(
    '/api/stream/mute',
    {
      schema: {
        summary: 'Mute the companion on stream ({muted: true|false}; without a body, toggle): muted, it says nothing and what it was saying is cut',
        body: MuteSchema,
        response: { 200: StreamStatusSchema },
      },
    },
    async (request) => stream.setMuted(request.body?.muted ?? !stream.status().muted),
  );

  app.post(
    '/api/stream/skip',
    {
      schema: {
        summary: 'Skip the answer in progress: its generation stops and its audio is cut; the next pick comes at the set pace',
        response: { 200: StreamStatusSchema.extend({ skipped_now: z.boolean() }) },
      },
    },
    async () => {
      const skipped = stream.skip();
      return { ...stream.status(), skipped_now: skipped };
    },
  );
};
