import { isIP } from 'node:net';

/**
 * The names a browser uses for this machine, and the origins of pages allowed to use loopback trust.
 * Pure functions over header values: no Fastify, so the socket gate and both listeners share them.
 */

const UNSPECIFIED = new Set(['0.0.0.0', '::']);
/** Longer than any real origin; a longer header is refused before any matching. */
const MAX_ORIGIN_LENGTH = 512;

/** 127.0.0.0/8, ::1 and their IPv4-mapped IPv6 spelling. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  // What a socket reports for a local client, answered without parsing: this runs on every request.
  if (address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1') return true;
  const bare = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1';
}

/** `name:port`, `[v6]:port` or a bare name, as the Host header or a URL host writes it. */
export function splitHost(host: string): { name: string; port: string } {
  const bracketed = host.startsWith('[') ? /^\[([^\]]*)\](?::(\d*))?$/.exec(host) : null;
  if (bracketed) return { name: bracketed[1] ?? '', port: bracketed[2] ?? '' };
  const colon = host.lastIndexOf(':');
  // A bare IPv6 address has several colons and no port.
  if (colon === -1 || host.indexOf(':') !== colon) return { name: host, port: '' };
  return { name: host.slice(0, colon), port: host.slice(colon + 1) };
}

/**
 * Whether a host name names this machine: localhost (and `*.localhost`, which browsers resolve to
 * loopback themselves), a loopback or unspecified address, or one of `extra` (the bind addresses and
 * APP_ALLOWED_HOSTS). A DNS name that merely resolves here (DNS rebinding) is not among them.
 */
export function isLocalHostName(name: string, extra: readonly string[]): boolean {
  // The names local clients send most, answered before any parsing.
  if (name === 'localhost' || name === '127.0.0.1') return true;
  const host = name.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isLoopbackAddress(host) || UNSPECIFIED.has(host)) return true;
  return extra.some((allowed) => allowed.toLowerCase() === host);
}

/**
 * An origin against a configured pattern: the exact origin, or `*` standing for any run of characters
 * other than `/` (`http://localhost:*`, `chrome-extension://*`); a lone `*` allows every origin.
 */
export function matchesOriginPattern(origin: string, pattern: string): boolean {
  if (pattern === '*') return true;
  if (!pattern.includes('*')) return origin.toLowerCase() === pattern.toLowerCase();
  const text = origin.toLowerCase();
  const parts = pattern.toLowerCase().split('*');
  const first = parts[0] ?? '';
  const last = parts.at(-1) ?? '';
  if (text.length < first.length + last.length || !text.startsWith(first) || !text.endsWith(last)) return false;
  // Each middle part at its first place after the previous one; no gap may span a `/`.
  const end = text.length - last.length;
  let at = first.length;
  for (const part of parts.slice(1, -1)) {
    const found = text.indexOf(part, at);
    if (found === -1 || found + part.length > end || text.slice(at, found).includes('/')) return false;
    at = found + part.length;
  }
  return !text.slice(at, end).includes('/');
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/**
 * Whether `origin` is the page of this very listener: the listener's scheme, a host name of this machine,
 * and the port the request itself was sent to (its Host header).
 */
export function isOwnOrigin(origin: string, hostHeader: string | undefined, scheme: 'http' | 'https', extraHosts: readonly string[]): boolean {
  if (origin.length > MAX_ORIGIN_LENGTH || hostHeader === undefined) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== `${scheme}:`) return false;
  const requested = splitHost(hostHeader);
  const defaultPort = DEFAULT_PORTS[url.protocol];
  const originName = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return isLocalHostName(originName, extraHosts) && (url.port || defaultPort) === (requested.port || defaultPort);
}

/** Whether an origin is allowed by a listener's configured list (capped in length, like every header). */
export function isListedOrigin(origin: string, patterns: readonly string[]): boolean {
  return origin.length <= MAX_ORIGIN_LENGTH && patterns.some((pattern) => matchesOriginPattern(origin, pattern));
}
