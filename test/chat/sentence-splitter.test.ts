import { describe, expect, it } from 'vitest';
import { LONG_RUN_CHARS, SentenceSplitter } from '../../src/chat/sentence-splitter.ts';
import { cutAtWord } from '../../src/chat/spoken-reply.ts';

/** Feeds `text` in pieces of `size` characters; returns every sentence in order, the flushed rest last. */
function split(text: string, size = 3): string[] {
  const splitter = new SentenceSplitter();
  const sentences: string[] = [];
  for (let i = 0; i < text.length; i += size) sentences.push(...splitter.push(text.slice(i, i + size)));
  const rest = splitter.flush();
  return rest === undefined ? sentences : [...sentences, rest];
}

describe('SentenceSplitter', () => {
  it('cuts at . ! ? … and line breaks, whatever the pieces', () => {
    const text = 'Hello there! How are you? Fine… Thanks.\nA new line';
    for (const size of [1, 2, 5, 100]) expect(split(text, size)).toEqual(['Hello there!', 'How are you?', 'Fine…', 'Thanks.', 'A new line']);
  });

  it('gives a sentence as soon as the character after its end shows it is one', () => {
    const splitter = new SentenceSplitter();
    expect(splitter.push('It costs 3.')).toEqual([]);
    expect(splitter.push('5 euros. And')).toEqual(['It costs 3.5 euros.']);
    expect(splitter.pending).toBe(' And');
  });

  it('does not cut after "e.g.", "Mr." or initials, nor inside numbers', () => {
    expect(split('Bring fruit, e.g. apples. Mr. Smith said so. U.S. law applies. Pi is 3.14 today.')).toEqual([
      'Bring fruit, e.g. apples.',
      'Mr. Smith said so.',
      'U.S. law applies.',
      'Pi is 3.14 today.',
    ]);
  });

  it('cuts CJK sentences at 。！？ without a space', () => {
    expect(split('你好。今天好吗？很好！', 2)).toEqual(['你好。', '今天好吗？', '很好！']);
  });

  it('keeps closing quotes with their sentence', () => {
    expect(split('She said "go!" Then left.')).toEqual(['She said "go!"', 'Then left.']);
  });

  it('cuts a long run without an end at a comma, else a space', () => {
    const clause = 'word '.repeat(30);
    const withComma = `${clause.trim()}, ${clause}${clause}`;
    const [first] = split(withComma, 7);
    expect(first).toBe(`${clause.trim()},`);
    const spaces = split('word '.repeat(100), 7);
    expect(spaces.length).toBeGreaterThan(1);
    for (const sentence of spaces) expect(sentence.length).toBeLessThanOrEqual(LONG_RUN_CHARS);
    expect(spaces.join(' ')).toBe('word '.repeat(100).trim());
  });
});

describe('cutAtWord', () => {
  it('keeps the words wholly before the cut', () => {
    expect(cutAtWord('How are you today?', 0.45)).toBe('How are');
    expect(cutAtWord('How are you today?', 7 / 18)).toBe('How are');
    expect(cutAtWord('How are you today?', 0.1)).toBe('');
    expect(cutAtWord('How are you today?', 0)).toBe('');
    expect(cutAtWord('How are you today?', 1.2)).toBe('How are you today?');
  });
});
