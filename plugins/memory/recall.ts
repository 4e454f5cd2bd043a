import type { Memory, MemoryCandidate, MemoryPort, RecallScope } from '../../src/components/contract.ts';
import { cosine } from './embeddings.ts';
import { memorySection, rankMemories } from './rank.ts';

/** Below this similarity a memory is not pulled in by meaning alone. */
const MIN_SIMILARITY = 0.3;
const MAX_BY_MEANING = 20;

export interface RecallOptions {
  /** MEMORY_PROMPT_BUDGET: most tokens of the whole section. */
  budget: number;
  fadeDays: number;
  now: Date;
  senderName: string;
  /** The message's vector and its model, when embeddings are on and answered in time. */
  meaning?: { model: string; vector: Float32Array };
}

export interface Recalled {
  /** The prompt's memory section; '' when nothing is remembered. */
  text: string;
  used: Memory[];
}

/** Similarity by meaning of the scope's memories with stored vectors, and those it pulls in that no word matched. */
async function byMeaning(memory: MemoryPort, scope: RecallScope, candidates: MemoryCandidate[], meaning: NonNullable<RecallOptions['meaning']>) {
  const similarity = new Map<number, number>();
  for (const [id, vector] of await memory.vectors(scope, meaning.model)) similarity.set(id, Math.max(0, cosine(meaning.vector, vector)));
  const known = new Set(candidates.map((candidate) => candidate.id));
  const extra = [...similarity]
    .filter(([id, value]) => !known.has(id) && value >= MIN_SIMILARITY)
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_BY_MEANING)
    .map(([id]) => id);
  const pulled = (await memory.getMany(extra)).filter((item) => item.superseded_by === null).map((item) => ({ ...item, relevance: 0 }));
  return { similarity, pulled };
}

/**
 * What to remember for one message: the scope's candidates (full-text matches, the profile, pinned,
 * recent episodes; plus similar ones by meaning), ranked, and the best that fit the budget, as the
 * prompt's memory section.
 */
export async function recall(memory: MemoryPort, scope: RecallScope, text: string, options: RecallOptions): Promise<Recalled> {
  const candidates = await memory.candidates(scope, text);
  let similarity: Map<number, number> | undefined;
  if (options.meaning) {
    const found = await byMeaning(memory, scope, candidates, options.meaning);
    similarity = found.similarity;
    candidates.push(...found.pulled);
  }
  const ranked = rankMemories(candidates, { now: options.now, fadeDays: options.fadeDays, ...(similarity ? { similarity } : {}) });
  const heading = `Memories from earlier conversations (about ${options.senderName} and this chat; use them naturally, never recite them):`;
  const section = memorySection(ranked, heading, options.budget);
  return { text: section.text, used: section.used.map(({ relevance: _relevance, ...item }) => item) };
}
