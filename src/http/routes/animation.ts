import { join } from 'node:path';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bucketOf } from '../../body/descriptor.ts';
import { listSkins, readStateFolder } from '../../body/skin-files.ts';
import { notFound } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { assertSegments, requestState, StateRequestSchema, StateResultSchema } from '../body-requests.ts';

const LevelsSchema = z.record(z.string(), z.number().min(0).max(1));
const EmotionStateSchema = z.object({ values: LevelsSchema, dominant: z.string().nullable(), blendshapes: LevelsSchema, updated_at: z.string().nullable() });

const SkinTypeParams = z.object({ skin: z.string().min(1).max(255), animation_type: z.string().min(1).max(255) });

/** The web UI's animation endpoints: the state it polls and requests, the per-skin lists, the face state. */
export const animationRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { body } = services;

  app.get('/api/animation_state', { schema: { summary: 'The active animation state, its file, descriptor and contexts' } }, async () => body.getAnimation());

  app.post(
    '/api/animation_state',
    { schema: { summary: 'Request a centralized animation state change', body: StateRequestSchema, response: { 200: StateResultSchema } } },
    async (request) => requestState(body, request.body),
  );

  app.get(
    '/api/animations/:skin/:animation_type',
    { schema: { summary: 'The animations of one state folder of one skin', params: SkinTypeParams } },
    async (request) => {
      const { skin, animation_type: type } = request.params;
      assertSegments(skin, type);
      if (!(await listSkins(services.paths.skins)).includes(skin)) throw notFound(`Unknown skin: ${skin}`);
      const files = await readStateFolder(join(services.paths.skins, skin), type, services.paths.skins, request.log);
      return {
        skin,
        animation_type: type,
        animations: files.map((file) => ({ file: file.name, url: file.url, descriptor: file.descriptor, kind: bucketOf(file.descriptor) })),
      };
    },
  );

  app.get(
    '/api/emotion_state',
    { schema: { summary: "Each emotion's level (0..1), the dominant emotion and the face's blend-shape values", response: { 200: EmotionStateSchema } } },
    async () => body.getEmotionState(),
  );
};
