import { describe, expect, it } from 'vitest';
import { MAX_COMMAND_LENGTH, parseAttentionCommand } from '../../src/chain/attention.ts';

const phrases = { sleep: ['Go to bed', 'shush'], wake: ['rise and shine'] };
const parse = (text: string) => parseAttentionCommand(text, phrases);

describe('parseAttentionCommand', () => {
  it('reads commands and phrases whatever their case, spacing and trailing punctuation', () => {
    expect(parse('/SLEEP!!')).toBe('sleep');
    expect(parse('  /awake . ')).toBe('wake');
    expect(parse('/status@anima_bot')).toBe('status');
    expect(parse('go   TO bed ?! ')).toBe('sleep');
    expect(parse(`rise and shine${'!'.repeat(200)}`)).toBe('wake');
    expect(parse('/sleep now')).toBeUndefined();
    expect(parse('go to bed, please')).toBeUndefined();
    expect(parse('...')).toBeUndefined();
  });

  it(`reads a message up to ${MAX_COMMAND_LENGTH} characters and no longer`, () => {
    expect(parse(`/sleep${' '.repeat(MAX_COMMAND_LENGTH - '/sleep'.length)}`)).toBe('sleep');
    expect(parse(`/sleep${' '.repeat(MAX_COMMAND_LENGTH - '/sleep'.length + 1)}`)).toBeUndefined();
  });

  // Each of these took the old trailing-punctuation pattern quadratic time: minutes for a million
  // characters, so a regression fails here by the test's timeout.
  it.each([
    ['spaces between two words', `a${' '.repeat(1_000_000)}b`],
    ['alternating ". "', `${'. '.repeat(500_000)}x`],
    ['exclamation marks before a letter', `${'!'.repeat(1_000_000)}x`],
    ['spaces only', ' '.repeat(1_000_000)],
  ])('answers at once that a million characters of %s are no command', (_name, text) => {
    expect(parse(text)).toBeUndefined();
  });
});
