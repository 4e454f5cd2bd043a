import { describe, expect, it } from 'vitest';
import { TypingIndicators } from '../../src/components/typing-indicators.ts';
import { ManualClock } from '../helpers/manual-clock.ts';

describe('typing indicators of a chat platform', () => {
  it('shows nothing for an answer under a second, then shows it at once and every 8 s until stopped', () => {
    const clock = new ManualClock();
    const indicators = new TypingIndicators(clock);
    let shown = 0;
    const quick = indicators.start(() => (shown += 1));
    clock.advance(999);
    quick();
    clock.advance(60_000);
    expect(shown).toBe(0);

    const slow = indicators.start(() => (shown += 1));
    clock.advance(1000);
    expect(shown).toBe(1);
    clock.advance(16_000);
    expect(shown).toBe(3);
    slow();
    clock.advance(60_000);
    expect(shown).toBe(3);
  });

  it('ends every indicator when the bot stops', () => {
    const clock = new ManualClock();
    const indicators = new TypingIndicators(clock);
    let shown = 0;
    indicators.start(() => (shown += 1));
    indicators.start(() => (shown += 1));
    clock.advance(1000);
    expect(shown).toBe(2);
    indicators.stopAll();
    clock.advance(60_000);
    expect(shown).toBe(2);
  });
});
