import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Services } from '../../services.ts';
import { ModelFieldSchema, resolveModel, type CompatModel } from '../catalogue.ts';
import { OllamaShowRequestSchema } from '../ollama.ts';
import { catalogue, parseBody } from './shared.ts';

/** The Ollama version reported to clients that check for a minimum server version. */
export const REPORTED_OLLAMA_VERSION = '0.12.0';

const details = { parent_model: '', format: 'gguf', family: 'anima', families: ['anima'], parameter_size: '', quantization_level: '' };

/** A model as /api/tags lists it: `name` and `model` are one value, as Ollama lists its own. */
function tagEntry(model: CompatModel, modifiedAt: string) {
  return { name: model.id, model: model.id, modified_at: modifiedAt, size: 0, digest: model.digest, details };
}

/** Synthetic models are always loaded: nothing to expire. */
const NEVER = '2318-08-31T00:00:00Z';

const ModelNameSchema = z.object({ name: ModelFieldSchema.min(1) });

/** The model catalogue and what clients probe: tags, show, ps, version, the OpenAI list, one model by name. */
export async function modelRoutes(app: FastifyInstance, { services }: { services: Services }): Promise<void> {
  const modifiedAt = services.runtime.startedAt.toISOString();
  const created = Math.floor(services.runtime.startedAt.getTime() / 1000);

  app.get('/api/version', async () => ({ version: REPORTED_OLLAMA_VERSION }));
  app.get('/api/tags', async () => ({ models: catalogue(services).map((model) => tagEntry(model, modifiedAt)) }));
  app.get('/api/ps', async () => ({
    models: catalogue(services).map((model) => ({ ...tagEntry(model, modifiedAt), expires_at: NEVER, size_vram: 0, context_length: 0 })),
  }));

  app.post('/api/show', async (request) => {
    const body = parseBody(OllamaShowRequestSchema, request.body);
    const model = resolveModel(catalogue(services), body.model ?? body.name);
    return {
      license: '',
      modelfile: `# ${model.display}: answered by Anima's ${model.engine ?? 'active'} Cortex engine\nFROM ${model.id}\n`,
      parameters: '',
      template: '{{ .Prompt }}',
      details,
      model_info: { 'general.architecture': 'anima', 'general.basename': model.display },
      capabilities: ['completion'],
      modified_at: modifiedAt,
    };
  });

  app.get('/v1/models', async () => ({
    object: 'list',
    data: catalogue(services).map((model) => ({ id: model.id, object: 'model', created, owned_by: 'anima' })),
  }));

  app.get('/v1/models/:name', async (request) => {
    const { name } = parseBody(ModelNameSchema, request.params);
    const model = resolveModel(catalogue(services), name);
    return { id: model.id, object: 'model', created, owned_by: 'anima' };
  });

  app.get('/api/models/:name', async (request) => {
    const { name } = parseBody(ModelNameSchema, request.params);
    const model = resolveModel(catalogue(services), name);
    return { ...tagEntry(model, modifiedAt), id: model.id, display_name: model.display, engine: model.engine ?? null };
  });
}
