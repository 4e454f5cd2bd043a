import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AnimationFile } from '../../body/skin-files.ts';
import { analyzeDescriptor } from '../../body/descriptor.ts';
import { listDescriptors, resolveDescriptor } from '../../body/descriptor-catalog.ts';
import { FALLBACK_SKIN } from '../../body/skin-files.ts';
import { notFound } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { BODY_STATE_PATH, bodyStateAnswer } from '../body-state-answer.ts';
import { assertSegments, requestState, StateRequestSchema, StateResultSchema, withKnownState } from '../body-requests.ts';
import {
  AnimationViewSchema,
  AssetManifestSchema,
  AudioAnswerSchema,
  DescriptorManifestSchema,
  FaceAnswerSchema,
  FileDescriptorSchema,
  FullStateSchema,
  MissingAssetsSchema,
  ModelAnswerSchema,
  ResolvedDescriptorSchema,
  VariantsSchema,
} from '../body-responses.ts';

const ActionSchema = z.union([z.object({ stop: z.string().min(1).max(256) }).strict(), StateRequestSchema]);
const StateParams = z.object({ state: z.string().min(1).max(128) });
const FileParams = z.object({ state: z.string().min(1).max(128), file: z.string().min(1).max(255) });
const HeldAssets = z.array(z.string().max(2048)).max(10_000);
const MissingBodySchema = z.object({ has_assets: HeldAssets.optional(), has: HeldAssets.optional() });
/** No body: the client's copy, named by its If-None-Match tag, is current. */
const NotModifiedSchema = z.void().describe('Not modified');
const MissingQuerySchema = z.object({ has_assets: z.string().max(100_000).optional(), has: z.string().max(100_000).optional() });

function listing(file: AnimationFile) {
  return { file: file.name, url: file.url, descriptor: file.descriptor };
}

/** The public body API (prefix /api/body/): state, actions, animation lists, descriptors and assets. */
export const bodyRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { body } = services;
  const skins = () => [body.library.skin, FALLBACK_SKIN];

  // What a desktop companion polls: the text serialised at the last change, and 304 for the tag it holds.
  // A loopback poller is answered before routing (`src/http/body-state-shortcut.ts`); this route answers the rest.
  app.get(
    BODY_STATE_PATH,
    {
      schema: {
        summary: 'Full body state: model, animation, face values, audio (ETag; If-None-Match answers 304)',
        response: { 200: FullStateSchema, 304: NotModifiedSchema },
      },
    },
    (request, reply) => {
      const answer = bodyStateAnswer(body, request.headers['if-none-match']);
      return reply.code(answer.status).headers(answer.headers).send(answer.json);
    },
  );
  app.get('/api/body/state/animation', { schema: { summary: 'The current animation', response: { 200: AnimationViewSchema } } }, async () =>
    body.getAnimation(),
  );
  app.get('/api/body/state/model', { schema: { summary: 'The current VRM model, or null', response: { 200: ModelAnswerSchema } } }, async () => ({
    vrm_model: body.getVrmModel(),
  }));
  app.get('/api/body/state/face', { schema: { summary: 'Current face blend-shape values', response: { 200: FaceAnswerSchema } } }, async () => ({
    face_values: body.getFaceValues(),
  }));
  app.get('/api/body/state/audio', { schema: { summary: 'Speech audio playing now, or null', response: { 200: AudioAnswerSchema } } }, async () => ({
    audio: body.getAudio(),
  }));

  app.post(
    '/api/body/action',
    {
      schema: {
        summary: 'Request a state change ({state, ...}) or stop a context ({stop: context_id})',
        body: ActionSchema,
        response: { 200: StateResultSchema },
      },
    },
    async (request) => {
      const action = request.body;
      if ('stop' in action) {
        const stopped = body.stopAnimation(action.stop);
        return { accepted: stopped, state: body.getAnimation().state, context_id: action.stop };
      }
      return requestState(body, action);
    },
  );

  app.get(
    '/api/body/animations/manifest',
    { schema: { summary: 'Reusable descriptors with their animation URLs', response: { 200: DescriptorManifestSchema } } },
    async (request) => ({
      descriptors: (await listDescriptors(services.paths.skins, skins(), request.log)).map(({ skin: _skin, ...entry }) => entry),
    }),
  );

  app.get(
    '/api/body/animations/resolve',
    {
      schema: {
        summary: 'The animation URL and descriptor of a descriptor id',
        querystring: z.object({ descriptor_id: z.string().min(1).max(1024) }),
        response: { 200: ResolvedDescriptorSchema },
      },
    },
    async (request) => {
      const entry = await resolveDescriptor(services.paths.skins, request.query.descriptor_id, request.log);
      if (!entry) throw notFound(`Unknown descriptor id: ${request.query.descriptor_id}`);
      return { animation_url: entry.animation_url, descriptor_data: entry.descriptor };
    },
  );

  app.get(
    '/api/body/animations/:state',
    { schema: { summary: 'The animations of a state, by bucket', params: StateParams, response: { 200: VariantsSchema } } },
    async (request) => {
      const variants = withKnownState(() => body.getAnimationVariants(request.params.state));
      const state = body.states.resolve(request.params.state);
      return {
        state,
        sequential: body.library.isSequential(state),
        variants: { loop: variants.loop.map(listing), post: variants.post.map(listing), other: variants.other.map(listing) },
      };
    },
  );

  app.get(
    '/api/body/animations/:state/:file/descriptor',
    { schema: { summary: 'The descriptor of one animation file and its analysis', params: FileParams, response: { 200: FileDescriptorSchema } } },
    async (request) => {
      assertSegments(request.params.file);
      const state = withKnownState(() => body.states.resolve(request.params.state));
      const file = body.library.find(state, request.params.file);
      if (!file) throw notFound(`No animation ${request.params.file} for state ${state}`);
      return { ...listing(file), state, analysis: file.descriptor ? analyzeDescriptor(file.descriptor) : null };
    },
  );

  app.get(
    '/api/body/assets/manifest',
    { schema: { summary: 'SHA-256 manifest of the active and fallback skins', response: { 200: AssetManifestSchema } } },
    async () => ({ assets: await body.getAssetManifest() }),
  );

  app.get(
    '/api/body/assets/missing',
    {
      schema: {
        summary: 'Assets missing from a comma-separated list of held hashes or URLs',
        querystring: MissingQuerySchema,
        response: { 200: MissingAssetsSchema },
      },
    },
    async (request) => {
      const held = (request.query.has_assets ?? request.query.has ?? '').split(',').filter((entry) => entry !== '');
      return { missing: await body.getMissingAssets(held) };
    },
  );

  app.post(
    '/api/body/assets/missing',
    { schema: { summary: 'Assets missing from a list of held hashes or URLs', body: MissingBodySchema, response: { 200: MissingAssetsSchema } } },
    async (request) => ({ missing: await body.getMissingAssets([...(request.body.has_assets ?? []), ...(request.body.has ?? [])]) }),
  );
};
