import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';
import { isListedOrigin, isLocalHostName, isLoopbackAddress, isOwnOrigin, splitHost } from './http/local-origin.ts';

export const SESSION_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

export type Now = () => number;

export { isLoopbackAddress };

export const unauthorized = () => new AppError(401, 'unauthorized', 'This request needs the API key or a session token');

export interface SessionGrant {
  session_id: string;
  token: string;
  expires_at: string;
}

/** Session tokens for the web UI and socket clients: random, in memory only, valid for 24 hours. */
export class SessionTokens {
  private readonly byToken = new Map<string, { sessionId: string; expiresAt: number }>();

  constructor(private readonly now: Now = Date.now) {}

  issue(): SessionGrant {
    this.sweep();
    const token = randomBytes(32).toString('base64url');
    const sessionId = randomUUID();
    const expiresAt = this.now() + SESSION_TOKEN_TTL_MS;
    this.byToken.set(token, { sessionId, expiresAt });
    return { session_id: sessionId, token, expires_at: new Date(expiresAt).toISOString() };
  }

  /** The session a valid token belongs to, or undefined when unknown or expired. */
  verify(token: string): string | undefined {
    const entry = this.byToken.get(token);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.byToken.delete(token);
      return undefined;
    }
    return entry.sessionId;
  }

  activeCount(): number {
    this.sweep();
    return this.byToken.size;
  }

  private sweep(): void {
    const now = this.now();
    for (const [token, entry] of this.byToken) if (entry.expiresAt <= now) this.byToken.delete(token);
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Compares digests so the comparison takes the same time whatever the lengths. */
function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

export interface TrustSettings {
  apiKey: () => string;
  trustLoopback: () => boolean;
  /** Names of this machine besides localhost and loopback addresses: the bind addresses, APP_ALLOWED_HOSTS. */
  allowedHosts: () => readonly string[];
}

/** What a listener adds to the rules: its extra origins, and whether it parses form content. */
export interface ListenerTrust {
  allowedOrigins: () => readonly string[];
  /** Form-shaped bodies (what a plain HTML form on any site can post) never ride on loopback trust. */
  formsNeedCredential: boolean;
}

/** The credential a request carries: `Authorization: Bearer <secret>` or `X-API-Key: <secret>`. */
export function presentedSecret(headers: FastifyRequest['headers']): string | undefined {
  const authorization = headers.authorization;
  if (typeof authorization === 'string' && authorization.startsWith('Bearer ')) return authorization.slice(7).trim();
  const apiKey = headers['x-api-key'];
  return typeof apiKey === 'string' ? apiKey.trim() : undefined;
}

type TrustedRequest = Pick<FastifyRequest, 'ip' | 'headers' | 'protocol'>;

const FORM_TYPES = new Set(['multipart/form-data', 'application/x-www-form-urlencoded', 'text/plain']);
/** Browser fetch contexts that are the page itself or the user's own navigation. */
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);

const forbiddenHost = (host: string) =>
  new AppError(403, 'forbidden_host', `Host "${host.slice(0, 100)}" does not name this machine; add it to APP_ALLOWED_HOSTS to allow it`);
const forbiddenOrigin = (what: string) =>
  new AppError(
    403,
    'forbidden_origin',
    `${what} may not use this machine's trust; add the origin to APP_ALLOWED_ORIGINS (COMPAT_ALLOWED_ORIGINS on the compatibility port) or send the API key`,
  );
const formNeedsCredential = () =>
  new AppError(401, 'unauthorized', 'Form and plain-text posts need a session token (POST /api/session) or the API key, even from this machine');

function isFormContent(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  return FORM_TYPES.has(contentType.split(';', 1)[0]?.trim().toLowerCase() ?? '');
}

/**
 * The contract's trust rules. A request is trusted with the API key or a valid session token, from any
 * origin; or from loopback (unless APP_TRUST_LOOPBACK is false), but only when its Host names this
 * machine (no DNS rebinding) and its browser origin, if any, is the listener's own or an allowed one.
 */
export class TrustPolicy {
  constructor(
    private readonly settings: TrustSettings,
    readonly tokens: SessionTokens,
  ) {}

  isTrustedSecret(secret: string | undefined): boolean {
    if (!secret) return false;
    const apiKey = this.settings.apiKey();
    if (apiKey !== '' && sameSecret(secret, apiKey)) return true;
    return this.tokens.verify(secret) !== undefined;
  }

  /** Undefined when the request is trusted; otherwise the error that refuses it (401 or 403). */
  refusal(request: TrustedRequest, listener: ListenerTrust): AppError | undefined {
    const viaLoopback = this.settings.trustLoopback() && isLoopbackAddress(request.ip);
    // The common case first and cheapest: the page or a local tool, no secret to hash.
    const browserRefusal = viaLoopback ? this.browserRefusal(request, listener) : unauthorized();
    if (!browserRefusal && !(listener.formsNeedCredential && isFormContent(request.headers['content-type']))) return undefined;
    if (this.isTrustedSecret(presentedSecret(request.headers))) return undefined;
    return browserRefusal ?? formNeedsCredential();
  }

  /** For routes open to everyone (the page, skin files, the compat probe): only a foreign Host is refused. */
  hostRefusal(request: TrustedRequest): AppError | undefined {
    if (!this.settings.trustLoopback() || !isLoopbackAddress(request.ip)) return undefined;
    const host = request.headers.host;
    if (host === undefined || isLocalHostName(splitHost(host).name, this.settings.allowedHosts())) return undefined;
    return this.isTrustedSecret(presentedSecret(request.headers)) ? undefined : forbiddenHost(host);
  }

  /** Why a loopback request may not use loopback trust: a foreign Host, or a foreign browser context. */
  private browserRefusal(request: TrustedRequest, listener: ListenerTrust): AppError | undefined {
    const { host, origin } = request.headers;
    const hosts = this.settings.allowedHosts();
    if (host !== undefined && !isLocalHostName(splitHost(host).name, hosts)) return forbiddenHost(host);
    if (origin === undefined) {
      // A browser that dropped the Origin (privacy tools, old browsers) still says where the request came from.
      const site = request.headers['sec-fetch-site'];
      return typeof site === 'string' && !OWN_FETCH_SITES.has(site) ? forbiddenOrigin(`A ${site.slice(0, 20)} browser request`) : undefined;
    }
    if (isOwnOrigin(origin, host, request.protocol, hosts) || isListedOrigin(origin, listener.allowedOrigins())) return undefined;
    return forbiddenOrigin(`Origin "${origin.slice(0, 100)}"`);
  }

  /** Verifies a hello token: a session token or the API key itself (for headless clients). */
  sessionForToken(token: string): string | undefined {
    const sessionId = this.tokens.verify(token);
    if (sessionId) return sessionId;
    const apiKey = this.settings.apiKey();
    return apiKey !== '' && sameSecret(token, apiKey) ? `key-${randomUUID()}` : undefined;
  }
}
