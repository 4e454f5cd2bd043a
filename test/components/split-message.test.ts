import { describe, expect, it } from 'vitest';
import { splitMessage } from '../../src/components/split-message.ts';

describe('splitting a long reply for a platform limit', () => {
  it('keeps a reply that fits as it is, and sends nothing for an empty one', () => {
    expect(splitMessage('Hello there. How are you?', 4096)).toEqual(['Hello there. How are you?']);
    expect(splitMessage('   ', 10)).toEqual([]);
  });

  it('packs whole sentences into each part, never beyond the limit, and loses no word', () => {
    const sentence = (n: number) => `Sentence number ${n} is here.`;
    const text = Array.from({ length: 300 }, (_, n) => sentence(n)).join(' ');
    const parts = splitMessage(text, 4096);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(4096);
      expect(part).toMatch(/^Sentence number \d+ is here\..*\.$/s);
    }
    expect(parts.join(' ')).toBe(text);
  });

  it('cuts a sentence longer than the limit between words, and a word longer than the limit without breaking a character', () => {
    expect(splitMessage('one two three four five six', 10)).toEqual(['one two', 'three four', 'five six']);
    const emoji = '😀'.repeat(6);
    const parts = splitMessage(emoji, 5);
    expect(parts.join('')).toBe(emoji);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(5);
    expect(parts.every((part) => !/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(part))).toBe(true);
  });
});
