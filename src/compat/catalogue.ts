import { createHash } from 'node:crypto';

/** One entry of the synthetic model list: the default model, or one per loaded chat engine. */
export interface CompatModel {
  /** What clients send back as `model` (`anima:latest`, `anima/openai:latest`). */
  id: string;
  /** The friendly label (COMPAT_DEFAULT_MODEL_DISPLAY), shown by clients as the model's name. */
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

/** The model a name or id designates ("llama3" means "llama3:latest"), if any. */
export function findModel(models: CompatModel[], name: string): CompatModel | undefined {
  return models.find((entry) => entry.id === withTag(name) || entry.display === name);
}

/** The model that answers a request: the one named, else the default (an unknown name is not an error). */
export function resolveModel(models: CompatModel[], name: string | undefined): CompatModel {
  return (name === undefined ? undefined : findModel(models, name)) ?? (models[0] as CompatModel);
}
