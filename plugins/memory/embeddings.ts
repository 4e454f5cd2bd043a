import { z } from 'zod';

const EmbeddingsSchema = z.object({
  data: z.array(z.object({ index: z.number().int().min(0), embedding: z.array(z.number()) })),
});

export interface EmbeddingsSettings {
  baseUrl: string;
  apiKey: string;
  model: string;
}

/** Vectors of `texts` in their order, from an OpenAI-compatible `POST <base>/embeddings`; throws on any failure. */
export async function embed(settings: EmbeddingsSettings, texts: string[], signal: AbortSignal): Promise<Float32Array[]> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (settings.apiKey.trim() !== '') headers.authorization = `Bearer ${settings.apiKey.trim()}`;
  const response = await fetch(`${settings.baseUrl.replace(/\/+$/, '')}/embeddings`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ model: settings.model, input: texts }),
    signal,
  });
  if (!response.ok) throw new Error(`embeddings: HTTP ${response.status}`);
  const { data } = EmbeddingsSchema.parse(await response.json());
  const vectors = texts.map((_, index) => data.find((item) => item.index === index)?.embedding);
  if (vectors.some((vector) => vector === undefined)) throw new Error('embeddings: the answer lacks a vector');
  return vectors.map((vector) => Float32Array.from(vector as number[]));
}

/** Cosine similarity, 0 for vectors of different sizes or no length. */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let index = 0; index < a.length; index += 1) {
    const x = a[index] as number;
    const y = b[index] as number;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}
