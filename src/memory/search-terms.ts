/** Words too common to tell one memory from another; the rest of a message is what a search looks for. */
const STOPWORDS = new Set(
  (
    'a an and are as at be been but by can could did do does doing for from had has have having he her here hers him his how i if in ' +
    'into is it its just me my myself no nor not now of off on once only or our ours out over own same she should so some such than ' +
    'that the their theirs them then there these they this those through to too under until up very was we were what when where which ' +
    'while who whom why will with would you your yours yourself hi hello hey ok okay yes please thanks thank tell know think going'
  ).split(' '),
);

const MAX_TERMS = 24;

/** The distinct, lower-case words of `text` worth searching for (letters and digits of any script), at most 24. */
export function searchTerms(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const terms = new Set<string>();
  for (const word of words) {
    if (word.length < 2 || STOPWORDS.has(word)) continue;
    terms.add(word);
    if (terms.size === MAX_TERMS) break;
  }
  return [...terms];
}
