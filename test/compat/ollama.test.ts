import { afterEach, describe, expect, it, vi } from 'vitest';
import { chatChunk, generateChunk } from '../../src/compat/ollama.ts';

describe('Ollama frames', () => {
  afterEach(() => vi.useRealTimers());

  it('stamp each chunk with the time in ISO 8601 to the millisecond, across second and year boundaries', () => {
    vi.useFakeTimers();
    const instants = [
      Date.UTC(2026, 10, 24, 20, 5, 7, 999),
      Date.UTC(2026, 10, 24, 20, 5, 8, 0),
      Date.UTC(2026, 10, 24, 20, 5, 8, 7),
      Date.UTC(2026, 11, 31, 23, 59, 59, 999),
      Date.UTC(2027, 0, 1, 0, 0, 0, 40),
    ];
    for (const instant of instants) {
      vi.setSystemTime(instant);
      expect(chatChunk('anima', 'hi').created_at).toBe(new Date(instant).toISOString());
      expect(generateChunk('anima', 'hi').created_at).toBe(new Date(instant).toISOString());
    }
  });
});
