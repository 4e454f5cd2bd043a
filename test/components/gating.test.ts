import { describe, expect, it } from 'vitest';
import { missingConfig, missingConfigReason } from '../../src/components/gating.ts';

const values: Record<string, string | undefined> = { A: 'x', BLANK: '   ', EMPTY: '', WITH_DEFAULT: 'https://matrix.org' };
const raw = (key: string) => values[key];

describe('required_config_vars', () => {
  it('is never gated by an empty or absent list', () => {
    expect(missingConfig([], raw)).toEqual([]);
    expect(missingConfig(undefined, raw)).toEqual([]);
  });

  it('needs every plain string (AND) and counts unset, empty and whitespace as missing', () => {
    expect(missingConfig(['A', 'UNSET', 'EMPTY', 'BLANK'], raw)).toEqual([['UNSET'], ['EMPTY'], ['BLANK']]);
  });

  it('needs one member of an OR group', () => {
    expect(missingConfig([['UNSET', 'A']], raw)).toEqual([]);
    expect(missingConfig([['UNSET', 'BLANK']], raw)).toEqual([['UNSET', 'BLANK']]);
  });

  it('counts a variable with a non-empty default as present', () => {
    expect(missingConfig(['WITH_DEFAULT'], raw)).toEqual([]);
  });

  it('words the reason with OR groups as "A or B"', () => {
    expect(missingConfigReason([['A'], ['B', 'C']])).toBe('Missing required configuration: A, B or C');
  });
});
