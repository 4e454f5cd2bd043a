import { describe, expect, it } from 'vitest';
import { searchTerms } from '../../src/memory/search-terms.ts';

describe('search terms of a message', () => {
  it('keeps the distinct words worth searching for, in lower case, without punctuation or common words', () => {
    expect(searchTerms('How is the Cello going, Mia? The CELLO!')).toEqual(['cello', 'mia']);
  });

  it('reads words of any script and refuses to become a query language', () => {
    expect(searchTerms('Ich übe "Cello" OR NEAR(x) — 大提琴 * -rome')).toEqual(['ich', 'übe', 'cello', 'near', '大提琴', 'rome']);
  });

  it('keeps at most 24 words', () => {
    expect(searchTerms(Array.from({ length: 40 }, (_, index) => `word${index}`).join(' '))).toHaveLength(24);
  });
});
