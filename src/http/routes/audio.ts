import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UnknownEngineError } from '../../audio/engine-registry.ts';
import { LANGUAGES } from '../../audio/languages.ts';
import type { VoxEngine } from '../../audio/vox/contract.ts';
import { UnknownSpeakerError } from '../../audio/vox/contract.ts';
import { TTS_URL_PREFIX } from '../../audio/vox/output-files.ts';
import { AppError, notFound } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { sendSpeechFile } from '../speech-file.ts';

const SpeakerSchema = z.looseObject({ code: z.string(), name: z.string(), language: z.string() });
const EngineQuerySchema = z.object({ engine: z.string().trim().min(1).max(64).optional() });
const SampleQuerySchema = EngineQuerySchema.extend({ speaker: z.string().trim().min(1, 'speaker is required').max(128) });

/** GET /api/vox/speakers, /api/vox/sample, /api/languages, and the generated speech files under /tts/. */
export const audioRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { vox: engines } = services.audio.engines;

  /** The named engine, else the active one; 404 unknown_engine, 503 when it cannot start. */
  async function engineOf(name: string | undefined): Promise<VoxEngine | undefined> {
    if (name === undefined && engines.activeName() === undefined) return undefined;
    try {
      return await engines.get(name);
    } catch (error) {
      if (error instanceof UnknownEngineError) throw new AppError(404, 'unknown_engine', error.message);
      services.logger.warn({ err: error, engine: name }, 'a Vox engine could not start');
      throw new AppError(503, 'unavailable', `The ${name ?? engines.activeName()} engine is unavailable`);
    }
  }

  app.get(
    '/api/vox/speakers',
    { schema: { summary: 'Speakers of a Vox engine (default: ACTIVE_VOX_ENGINE)', querystring: EngineQuerySchema, response: { 200: z.array(SpeakerSchema) } } },
    async (request) => {
      const engine = await engineOf(request.query.engine);
      // Speaker metadata is engine-specific: fields beyond code, name and language are passed through.
      return ((await engine?.speakers?.()) ?? []) as Array<z.infer<typeof SpeakerSchema>>;
    },
  );

  app.get('/api/vox/sample', { schema: { summary: 'A short WAV sample of one speaker', querystring: SampleQuerySchema } }, async (request, reply) => {
    const engine = await engineOf(request.query.engine);
    if (!engine?.sample) throw new AppError(404, 'no_samples', `The ${request.query.engine ?? engines.activeName() ?? 'disabled'} engine has no samples`);
    try {
      const wav = await engine.sample(request.query.speaker);
      return reply.type('audio/wav').header('cache-control', 'max-age=3600').send(Buffer.from(wav));
    } catch (error) {
      if (error instanceof UnknownSpeakerError) throw notFound(error.message);
      throw error;
    }
  });

  app.get(
    '/api/languages',
    {
      schema: {
        summary: 'Language catalogue for the VOX_LANGUAGE_OVERRIDES editor (read-only)',
        response: { 200: z.object({ languages: z.array(z.object({ code: z.string(), name: z.string() })), engines: z.array(z.string()) }) },
      },
    },
    async () => ({ languages: LANGUAGES.map(({ code, name }) => ({ code, name })), engines: engines.names() }),
  );

  // Browsers fetch these with a plain <audio src>, which carries no credentials: the names are random.
  app.get(`${TTS_URL_PREFIX}:file`, { schema: { hide: true, params: z.object({ file: z.string().max(128) }) } }, (request, reply) =>
    sendSpeechFile(reply, services.audio.files, request.params.file),
  );
};
