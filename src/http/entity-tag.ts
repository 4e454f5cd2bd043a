/**
 * Whether an `If-None-Match` header names this strong tag: the whole header (what a poller sends back) or
 * one member of a list. Weak tags (`W/"..."`) and `*` never match; a 200 is always a correct answer, a 304
 * only for the exact text the client already holds.
 */
export function holdsTag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch === etag) return true;
  return ifNoneMatch.includes(',') && ifNoneMatch.split(',').some((member) => member.trim() === etag);
}
