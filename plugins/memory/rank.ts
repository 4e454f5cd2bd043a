import type { MemoryCandidate } from '../../src/components/contract.ts';

/** Tokens of a text as the budget counts them: 4 characters each, rounded up (a safe side for English). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export interface RankOptions {
  now: Date;
  /** Days after which a fact or an episode that was not recalled counts half. */
  fadeDays: number;
  /** Similarity by meaning (cosine, 0..1) of each memory with stored vectors, when embeddings are on. */
  similarity?: ReadonlyMap<number, number>;
}

const DAY_MS = 86_400_000;
/**
 * What a memory that matched no word of the message still counts for relevance (the profile, recent
 * episodes): low enough that an old, middling fact matching every word outranks a dozen unmatched profile
 * items (bench/memory.ts: recall@5 0.835 at 0.25, 0.96 at 0.1).
 */
const UNMATCHED = 0.1;

/** 1 for the profile (it never fades); halves every `fadeDays` since a fact or episode was learned or last recalled. */
function recency(memory: MemoryCandidate, options: RankOptions): number {
  if (memory.kind === 'profile') return 1;
  const since = Date.parse(memory.last_recalled_at ?? memory.created_at);
  const days = Math.max(0, (options.now.getTime() - since) / DAY_MS);
  return 0.5 ** (days / options.fadeDays);
}

/**
 * Best first: pinned memories always lead; the rest by relevance x importance x recency, where relevance
 * is the full-text score relative to the best match of this message (or the similarity by meaning, when
 * higher), never below a floor, so the profile counts even when no word matched.
 */
export function rankMemories(candidates: readonly MemoryCandidate[], options: RankOptions): MemoryCandidate[] {
  const best = Math.max(0, ...candidates.map((memory) => memory.relevance));
  const score = (memory: MemoryCandidate) => {
    const words = best > 0 ? memory.relevance / best : 0;
    const meaning = options.similarity?.get(memory.id) ?? 0;
    const relevance = UNMATCHED + (1 - UNMATCHED) * Math.max(words, meaning);
    return relevance * Math.max(0.05, memory.importance) * recency(memory, options);
  };
  const scored = candidates.map((memory) => ({ memory, score: score(memory) }));
  scored.sort((a, b) => Number(b.memory.pinned) - Number(a.memory.pinned) || b.score - a.score || b.memory.id - a.memory.id);
  return scored.map(({ memory }) => memory);
}

function lineOf(memory: MemoryCandidate): string {
  return memory.kind === 'episode' ? `- (an earlier conversation here) ${memory.text}` : `- ${memory.text}`;
}

/**
 * The prompt's memory section: a heading, then the ranked memories that fit, in their order, within
 * `budget` tokens for the whole section; a memory too long for what is left is skipped for a shorter one.
 * Nothing at all when no memory fits.
 */
export function memorySection(ranked: readonly MemoryCandidate[], heading: string, budget: number): { text: string; used: MemoryCandidate[] } {
  const used: MemoryCandidate[] = [];
  let text = heading;
  for (const memory of ranked) {
    const next = `${text}\n${lineOf(memory)}`;
    if (estimateTokens(next) > budget) continue;
    text = next;
    used.push(memory);
  }
  return used.length === 0 ? { text: '', used } : { text, used };
}
