import { describe, expect, it } from 'vitest';
import type { MemoryCandidate } from '../../../src/components/contract.ts';
import { estimateTokens, memorySection, rankMemories } from '../../../plugins/memory/rank.ts';

const NOW = new Date('2026-06-01T00:00:00.000Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString();

let nextId = 1;
function candidate(text: string, fields: Partial<MemoryCandidate> = {}): MemoryCandidate {
  return {
    id: nextId++,
    person_id: 1,
    kind: 'fact',
    topic: null,
    text,
    importance: 0.5,
    created_at: daysAgo(0),
    last_recalled_at: null,
    source_path: null,
    pinned: false,
    superseded_by: null,
    relevance: 0,
    ...fields,
  };
}
const order = (candidates: MemoryCandidate[], similarity?: Map<number, number>) =>
  rankMemories(candidates, { now: NOW, fadeDays: 30, ...(similarity ? { similarity } : {}) }).map((memory) => memory.text);

describe('ranking memories', () => {
  it('puts pinned memories first, then relevance x importance x recency', () => {
    expect(
      order([
        candidate('matched, important', { relevance: 4, importance: 0.9 }),
        candidate('matched weakly', { relevance: 1, importance: 0.9 }),
        candidate('unmatched', { importance: 0.9 }),
        candidate('pinned, trivial', { pinned: true, importance: 0.05 }),
      ]),
    ).toEqual(['pinned, trivial', 'matched, important', 'matched weakly', 'unmatched']);
  });

  it('lets facts fade unless recalled, and never the profile', () => {
    expect(
      order([
        candidate('old fact', { created_at: daysAgo(90) }),
        candidate('old fact recalled yesterday', { created_at: daysAgo(90), last_recalled_at: daysAgo(1) }),
        candidate('old profile', { kind: 'profile', created_at: daysAgo(900) }),
      ]),
    ).toEqual(['old profile', 'old fact recalled yesterday', 'old fact']);
  });

  it('counts similarity by meaning like a word match', () => {
    const byMeaning = candidate('similar in meaning');
    expect(order([candidate('matched', { relevance: 2, importance: 0.4 }), byMeaning], new Map([[byMeaning.id, 0.95]]))).toEqual([
      'similar in meaning',
      'matched',
    ]);
  });
});

describe('the memory section of the prompt', () => {
  it('never exceeds its budget, and skips a memory too long for what is left', () => {
    for (let budget = 20; budget <= 200; budget += 7) {
      const ranked = Array.from({ length: 40 }, (_, index) => candidate('word '.repeat(1 + ((index * 7) % 23)).trim()));
      const { text, used } = memorySection(ranked, 'Memories:', budget);
      expect(estimateTokens(text)).toBeLessThanOrEqual(budget);
      if (used.length > 0) expect(text.split('\n')).toHaveLength(used.length + 1);
    }
    const section = memorySection([candidate('x'.repeat(400)), candidate('short one')], 'Memories:', 20);
    expect(section.text).toBe('Memories:\n- short one');
  });

  it('is empty when nothing fits', () => {
    expect(memorySection([candidate('x'.repeat(400))], 'Memories:', 20)).toEqual({ text: '', used: [] });
  });

  it('marks episodes as earlier conversations', () => {
    expect(memorySection([candidate('We planned a picnic.', { kind: 'episode' })], 'Memories:', 100).text).toBe(
      'Memories:\n- (an earlier conversation here) We planned a picnic.',
    );
  });
});
