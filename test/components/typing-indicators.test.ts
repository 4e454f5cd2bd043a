import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TypingIndicators } from '../../src/components/typing-indicators.ts';

describe('typing indicators of a chat platform', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows nothing for an answer under a second, then shows it at once and every 8 s until stopped', () => {
    const indicators = new TypingIndicators();
    let shown = 0;
    const quick = indicators.start(() => (shown += 1));
    vi.advanceTimersByTime(999);
    quick();
    vi.advanceTimersByTime(60_000);
    expect(shown).toBe(0);

    const slow = indicators.start(() => (shown += 1));
    vi.advanceTimersByTime(1000);
    expect(shown).toBe(1);
    vi.advanceTimersByTime(16_000);
    expect(shown).toBe(3);
    slow();
    vi.advanceTimersByTime(60_000);
    expect(shown).toBe(3);
  });

  it('ends every indicator when the bot stops', () => {
    const indicators = new TypingIndicators();
    let shown = 0;
    indicators.start(() => (shown += 1));
    indicators.start(() => (shown += 1));
    vi.advanceTimersByTime(1000);
    expect(shown).toBe(2);
    indicators.stopAll();
    vi.advanceTimersByTime(60_000);
    expect(shown).toBe(2);
  });
});
