/**
 * Credentials inside non-secret values, masked for display. Pure and free of Node modules, so that the web
 * UI shows a value the user is about to save by the same rule `GET /api/config` shows a saved one.
 */
import type { VariableType } from './define.ts';
import { withinJsonDepth } from './json-depth.ts';

/**
 * Credentials that sit inside a non-secret value (a password in a URL, an Authorization header in a JSON
 * header map) are shown as this text by `GET /api/config`.
 */
export const MASK = '***';

/**
 * `://userinfo@` of any URL: the user info runs to the last `@` before the host's end (a raw `@` in a
 * password). Anchored on `://` rather than the scheme, so that a long value without URLs is scanned in
 * linear time.
 */
export const URL_USERINFO = /:\/\/([^\s/?#]*)@/g;

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

/** Every URL in the text, also several in a comma-separated list, with its credentials masked. */
function maskUrls(text: string): string {
  return text.replace(URL_USERINFO, (_match, userinfo: string) => `://${maskUserinfo(userinfo)}@`);
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

/** Parsed JSON that the recursive walks can take: too deep a value counts as text (the schema refuses it). */
export function parseJson(raw: string): { ok: true; value: unknown } | { ok: false } {
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
  const masked = JSON.stringify(maskJson(parsed.value));
  // Unchanged values keep their own formatting; only a value that hid something is rewritten. Masking
  // keeps every member in its place, so equal texts mean nothing was hidden.
  return masked === JSON.stringify(parsed.value) ? raw : masked;
}
