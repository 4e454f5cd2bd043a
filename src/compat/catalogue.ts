import { createHash } from 'node:crypto';
import { z } from 'zod';
import { modelNotFound } from './client-errors.ts';

/** A model name as clients send it; names are short, and one is echoed in every chunk. */
export const ModelFieldSchema = z.string().max(256);

/** One entry of the synthetic model list: the default model, or one per loaded chat engine. */
export interface CompatModel {
  /** The model's name and id in every list (`anima:latest`, `anima/openai:latest`), what clients send back as `model`. */
  id: string;
  /** The friendly label (COMPAT_DEFAULT_MODEL_DISPLAY): /api/show's basename and /api/models' display_name; clients may name the model by it. */
  display: string;
  /** The Cortex engine it selects; undefined: the active engine. */
  engine: string | undefined;
  digest: string;
}

const withTag = (name: string) => (name.includes(':') ? name : `${name}:latest`);

/** Digests by id: the catalogue is rebuilt for every request, and hashing is its only real cost. */
const digests = new Map<string, string>();

function model(id: string, display: string, engine: string | undefined): CompatModel {
  let digest = digests.get(id);
  if (digest === undefined) {
    digest = createHash('sha256').update(id).digest('hex');
    digests.set(id, digest);
  }
  return { id, display, engine, digest };
}

/** COMPAT_DEFAULT_MODEL first (answered by the active engine), then `anima/<engine>:latest` per loaded chat engine. */
export function compatModels(defaults: { model: string; display: string }, engines: string[]): CompatModel[] {
  return [
    model(withTag(defaults.model), defaults.display, undefined),
    ...engines.map((engine) => model(`anima/${engine}:latest`, `${defaults.display} (${engine})`, engine)),
  ];
}

/** The model a name designates: its id, with or without `:latest`, in any case (as Ollama matches names), or its label. */
export function findModel(models: CompatModel[], name: string): CompatModel | undefined {
  const id = withTag(name).toLowerCase();
  return models.find((entry) => entry.id.toLowerCase() === id || entry.display === name);
}

/** The model that answers a request: the one named, the default when none is; an unknown name is Ollama's and OpenAI's 404. */
export function resolveModel(models: CompatModel[], name: string | undefined): CompatModel {
  if (name === undefined) return models[0] as CompatModel;
  const found = findModel(models, name);
  if (!found) throw modelNotFound(name);
  return found;
}
