import { describe, expect, it } from 'vitest';
import { EmotionTagStripper, stripEmotionTags } from '../../src/chain/emotion-tags.ts';

/** Feeds the text in pieces of `size` characters; returns what each push let out. */
function streamed(text: string, size: number) {
  const stripper = new EmotionTagStripper();
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) pieces.push(stripper.push(text.slice(at, at + size)));
  pieces.push(stripper.flush());
  return { pieces, text: pieces.join(''), stripper };
}

describe('stripEmotionTags', () => {
  it('removes tags with and without an intensity and reports them in order', () => {
    expect(stripEmotionTags('[em_happy] Hello! [em_sad:0.4] Oh no.')).toEqual({
      text: 'Hello! Oh no.',
      tags: [
        { name: 'happy', intensity: undefined },
        { name: 'sad', intensity: 0.4 },
      ],
    });
  });

  it('keeps one blank between the words around a tag, and none where there was none', () => {
    expect(stripEmotionTags('Hi [em_happy] there').text).toBe('Hi there');
    expect(stripEmotionTags('Great![em_happy] Next').text).toBe('Great! Next');
    expect(stripEmotionTags('Done [em_relaxed]').text).toBe('Done ');
    expect(stripEmotionTags('{"text": "[em_happy] Hi"}').text).toBe('{"text": "Hi"}');
  });

  it('clamps an intensity above 1 and accepts .5 and 1.', () => {
    expect(stripEmotionTags('[em_angry:3][em_a:.5][em_b:1.]').tags.map((tag) => tag.intensity)).toEqual([1, 0.5, 1]);
  });

  it('strips a well-formed tag whatever its name; leaves text that is no tag', () => {
    expect(stripEmotionTags('a [em_nonsense] b').text).toBe('a b');
    for (const text of ['[em_] x', '[em_happy:lots] x', '[emphasis] x', '[1] see [x]', 'a [ b', `[em_${'x'.repeat(33)}]`]) {
      expect(stripEmotionTags(text)).toEqual({ text, tags: [] });
    }
  });

  it('drops a tag cut off by the end of the reply, but keeps a lone bracket', () => {
    expect(stripEmotionTags('Bye [em_hap').text).toBe('Bye ');
    expect(stripEmotionTags('Bye [e').text).toBe('Bye [e');
  });
});

describe('EmotionTagStripper (streaming)', () => {
  const reply = 'Oh, [em_surprised:0.9] really? [em_happy] That is [wonderful] news!';

  it('gives the same text and tags whatever the piece size', () => {
    const whole = stripEmotionTags(reply);
    for (const size of [1, 2, 3, 5, 7, 11, reply.length]) {
      const run = streamed(reply, size);
      expect(run.text).toBe(whole.text);
      expect(run.stripper.found).toEqual(whole.tags);
      expect(run.pieces.join('')).not.toContain('em_');
    }
  });

  it('never lets a piece of a tag out, even one character at a time', () => {
    const run = streamed('A[em_happy:0.5]B', 1);
    expect(run.pieces.filter((piece) => piece !== '')).toEqual(['A', 'B']);
  });

  it('holds back no more than a possible tag: plain text goes out with its own piece', () => {
    const stripper = new EmotionTagStripper();
    expect(stripper.push('Hello wor')).toBe('Hello wor');
    expect(stripper.push('ld [em')).toBe('ld ');
    expect(stripper.push('ph')).toBe('[emph');
    expect(stripper.push('asis] and [em_sad')).toBe('asis] and ');
    expect(stripper.push('] more')).toBe('more');
    expect(stripper.found).toEqual([{ name: 'sad', intensity: undefined }]);
  });
});
