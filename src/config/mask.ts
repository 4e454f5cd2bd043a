import { isDeepStrictEqual } from 'node:util';
import { isSensitiveName, MASK, maskCredentials, parseJson, URL_USERINFO } from './credential-mask.ts';
import type { VariableType } from './define.ts';

/**
 * The credential of each URL in the text (its password, or a lone user name, which is usually a token),
 * as written and percent-decoded: what a log line might quote.
 */
export function urlCredentials(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(URL_USERINFO)) {
    const userinfo = match[1] ?? '';
    const colon = userinfo.indexOf(':');
    const credential = colon === -1 ? userinfo : userinfo.slice(colon + 1);
    if (credential === '') continue;
    found.push(credential);
    try {
      found.push(decodeURIComponent(credential));
    } catch {
      // Not valid percent-encoding: it can only appear as written.
    }
  }
  return found;
}

function userinfoIsMasked(userinfo: string): boolean {
  return userinfo === MASK || userinfo.endsWith(`:${MASK}`);
}

function urlsHoldMask(text: string): boolean {
  return [...text.matchAll(URL_USERINFO)].some((match) => userinfoIsMasked(match[1] ?? ''));
}

function jsonHoldsMask(value: unknown, hidden = false): boolean {
  if (typeof value === 'string') return (hidden && value === MASK) || urlsHoldMask(value);
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([name, member]) => jsonHoldsMask(member, hidden || isSensitiveName(name)));
}

function holdsMask(type: VariableType, raw: string): boolean {
  if (type !== 'json') return urlsHoldMask(raw);
  const parsed = parseJson(raw);
  return parsed.ok ? jsonHoldsMask(parsed.value) : urlsHoldMask(raw);
}

function sameAsShown(type: VariableType, sent: string, shown: string): boolean {
  if (type !== 'json') return sent.trim() === shown.trim();
  const [a, b] = [parseJson(sent), parseJson(shown)];
  return a.ok && b.ok && isDeepStrictEqual(a.value, b.value);
}

/**
 * What to save when a client sends a value back (the configuration page posts the text it showed): the
 * stored value when `sent` is its unchanged masked view, `sent` when it hides nothing, and undefined when
 * `sent` still holds `***` where a credential was, since saving it would replace the secret with `***`.
 */
export function unmaskSent(type: VariableType, sent: string, current: string): string | undefined {
  if (!holdsMask(type, sent)) return sent;
  return sameAsShown(type, sent, maskCredentials(type, current)) ? current : undefined;
}
