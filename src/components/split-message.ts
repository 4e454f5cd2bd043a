const sentences = new Intl.Segmenter('en', { granularity: 'sentence' });
const words = new Intl.Segmenter('en', { granularity: 'word' });

/** Cuts a piece longer than the limit at the last word boundary that fits, or hard (never inside a surrogate pair). */
function cutLong(piece: string, limit: number): string[] {
  const parts: string[] = [];
  let rest = piece;
  while (rest.length > limit) {
    let cut = 0;
    for (const { index } of words.segment(rest)) {
      if (index > limit) break;
      cut = index;
    }
    if (cut === 0) cut = /[\uD800-\uDBFF]/.test(rest.charAt(limit - 1)) ? limit - 1 : limit;
    parts.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest !== '') parts.push(rest);
  return parts;
}

/**
 * Splits a reply for a platform that limits a message's length (Telegram 4096, Discord 2000 UTF-16 units):
 * whole sentences packed into each part; a sentence over the limit is cut between words.
 */
export function splitMessage(text: string, limit: number): string[] {
  if (!Number.isInteger(limit) || limit < 2) throw new RangeError('limit must be an integer of at least 2');
  if (text.length <= limit) return text.trim() === '' ? [] : [text];
  const parts: string[] = [];
  let current = '';
  for (const { segment } of sentences.segment(text)) {
    if (current.length + segment.length <= limit) {
      current += segment;
      continue;
    }
    if (current.trim() !== '') parts.push(current.trim());
    const pieces = cutLong(segment, limit);
    current = pieces.pop() ?? '';
    parts.push(...pieces);
  }
  if (current.trim() !== '') parts.push(current.trim());
  return parts;
}
