import type { ViewerMessage } from '../components/contract.ts';

/** A question: a question mark, or a sentence opening with a question word (chat often drops the mark). */
const QUESTION = /\?|^\s*(who|what|when|where|why|how|which|can|could|do|does|did|is|are|will|would|should)\b/i;

/**
 * How much a viewer's message deserves an answer: support (cheers, subscriptions, raids, super chats)
 * first, then messages that name the companion, then questions, then the rest.
 */
export function priorityOf(viewer: ViewerMessage): number {
  if (viewer.support) return 3;
  if (viewer.message.mentioned) return 2;
  return QUESTION.test(viewer.message.text) ? 1 : 0;
}

/** Lower-cased words and phrases of STREAM_BLOCKED_WORDS. */
export const blockedTermsOf = (words: readonly string[]) => words.map((word) => word.toLowerCase()).filter((word) => word !== '');

/**
 * Whether the operator's word list blocks `text`: a term matches as a whole word or phrase, in any case,
 * so "ass" blocks "ass" but not "class".
 */
export function isBlocked(text: string, terms: readonly string[]): boolean {
  const lower = text.toLowerCase();
  return terms.some((term) => {
    for (let at = lower.indexOf(term); at !== -1; at = lower.indexOf(term, at + 1)) {
      const before = lower.charAt(at - 1);
      const after = lower.charAt(at + term.length);
      if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) return true;
    }
    return false;
  });
}
