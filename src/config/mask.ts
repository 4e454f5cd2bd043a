import { isDeepStrictEqual } from 'node:util';
import type { VariableType } from './define.ts';
import { withinJsonDepth } from './json-depth.ts';

/**
 * Credentials that sit inside a non-secret value (a password in a URL, an Authorization header in a JSON
 * header map) are shown as this text by `GET /api/config`.
 */
const MASK = '***';

/**
 * `://userinfo@` of any URL: the user info runs to the last `@` before the host's end (a raw `@` in a
 * password). Anchored on `://` rather than the scheme, so that a long value without URLs is scanned in
 * linear time.
 */
const URL_USERINFO = /:\/\/([^\s/?#]*)@/g;

/** Header or setting names whose string value is a credential (case-insensitive parts of the name). */
const SENSITIVE_NAME_PARTS = ['auth', 'cookie', 'token', 'key', 'secret', 'password'];

export function isSensitiveName(name: string): boolean {
  const lower = name.toLowerCase();
  return SENSITIVE_NAME_PARTS.some((part) => lower.includes(part));
}

/** `user:password` becomes `user:***`; a lone user name (often a token) becomes `***`. */
function maskUserinfo(userinfo: string): string {
  const colon = userinfo.indexOf(':');
  return colon === -1 ? MASK : `${userinfo.slice(0, colon)}:${MASK}`;
}

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

/** Every URL in the text, also several in a comma-separated list, with its credentials masked. */
function maskUrls(text: string): string {
  return text.replace(URL_USERINFO, (_match, userinfo: string) => `://${maskUserinfo(userinfo)}@`);
}

function urlsHoldMask(text: string): boolean {
  return [...text.matchAll(URL_USERINFO)].some((match) => userinfoIsMasked(match[1] ?? ''));
}

/**
 * A parsed JSON value with URL credentials masked, and every string under a sensitive name (`hidden`)
 * masked whole, also inside a nested object such as `{"auth": {"user": …}}`.
 */
function maskJson(value: unknown, hidden = false): unknown {
  if (typeof value === 'string') return hidden ? MASK : maskUrls(value);
  if (Array.isArray(value)) return value.map((item) => maskJson(item, hidden));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([name, member]) => [name, maskJson(member, hidden || isSensitiveName(name))]));
}

function jsonHoldsMask(value: unknown, hidden = false): boolean {
  if (typeof value === 'string') return (hidden && value === MASK) || urlsHoldMask(value);
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([name, member]) => jsonHoldsMask(member, hidden || isSensitiveName(name)));
}

/** Parsed JSON that the recursive walks above can take: too deep a value counts as text (the schema refuses it). */
function parseJson(raw: string): { ok: true; value: unknown } | { ok: false } {
  try {
    const value = JSON.parse(raw) as unknown;
    return withinJsonDepth(value) ? { ok: true, value } : { ok: false };
  } catch {
    return { ok: false };
  }
}

/** The raw text of a non-secret variable as it may be shown: credentials inside it replaced by `***`. */
export function maskCredentials(type: VariableType, raw: string): string {
  if (type !== 'json') return maskUrls(raw);
  const parsed = parseJson(raw);
  if (!parsed.ok) return maskUrls(raw);
  const masked = maskJson(parsed.value);
  // Unchanged values keep their own formatting; only a value that hid something is rewritten.
  return isDeepStrictEqual(masked, parsed.value) ? raw : JSON.stringify(masked);
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
