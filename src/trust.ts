import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from './errors.ts';

export const SESSION_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
export const HELLO_TIMEOUT_MS = 5000;
export const UNAUTHORIZED_CLOSE_CODE = 4401;

export type Now = () => number;

/** 127.0.0.0/8, ::1 and their IPv4-mapped IPv6 spelling. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const bare = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1';
}

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
}

/** The credential a request carries: `Authorization: Bearer <secret>` or `X-API-Key: <secret>`. */
export function presentedSecret(headers: FastifyRequest['headers']): string | undefined {
  const authorization = headers.authorization;
  if (typeof authorization === 'string' && authorization.startsWith('Bearer ')) return authorization.slice(7).trim();
  const apiKey = headers['x-api-key'];
  return typeof apiKey === 'string' ? apiKey.trim() : undefined;
}

/**
 * The contract's trust rules. A request is trusted from loopback (unless APP_TRUST_LOOPBACK is false),
 * or with the API key, or with a valid session token (so a remote web UI that showed the key once keeps
 * working with its token).
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

  isTrusted(request: Pick<FastifyRequest, 'ip' | 'headers'>): boolean {
    if (this.settings.trustLoopback() && isLoopbackAddress(request.ip)) return true;
    return this.isTrustedSecret(presentedSecret(request.headers));
  }

  /** An onRequest hook body: throws 401 for an untrusted request. */
  assertTrusted(request: Pick<FastifyRequest, 'ip' | 'headers'>): void {
    if (!this.isTrusted(request)) throw unauthorized();
  }

  /** Verifies a hello token: a session token or the API key itself (for headless clients). */
  sessionForToken(token: string): string | undefined {
    const sessionId = this.tokens.verify(token);
    if (sessionId) return sessionId;
    const apiKey = this.settings.apiKey();
    return apiKey !== '' && sameSecret(token, apiKey) ? `key-${randomUUID()}` : undefined;
  }
}

export const HelloSchema = z.looseObject({
  type: z.literal('hello'),
  token: z.string().optional(),
  has_assets: z.array(z.string()).max(10_000).optional(),
});
export type Hello = z.infer<typeof HelloSchema>;

/** What a socket route needs of a WebSocket; `ws` sockets match it. */
export interface GatedSocket {
  readyState: number;
  on(event: 'message', listener: (data: unknown, isBinary: boolean) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  off(event: 'message', listener: (data: unknown, isBinary: boolean) => void): unknown;
  close(code?: number, reason?: string): void;
}

export interface AdmittedSocket {
  /** The token's session, or a fresh id for a loopback client that sent none. */
  sessionId: string;
  hasAssets: string[];
  hello: Hello;
}

/**
 * The hello handshake every socket route shares. The first message must be a valid hello within the
 * timeout; a loopback (or key-carrying) upgrade may omit the token. Anything else closes with 4401.
 * Resolves undefined when the socket was refused. Counts the admitted sockets that are still open.
 */
export class SocketGate {
  private open = 0;

  constructor(
    private readonly policy: TrustPolicy,
    private readonly timeoutMs = HELLO_TIMEOUT_MS,
  ) {}

  openCount(): number {
    return this.open;
  }

  admit(socket: GatedSocket, request: Pick<FastifyRequest, 'ip' | 'headers'>): Promise<AdmittedSocket | undefined> {
    const trustedUpgrade = this.policy.isTrusted(request);
    return new Promise((resolve) => {
      const refuse = (reason: string) => {
        clearTimeout(timer);
        socket.off('message', onMessage);
        socket.close(UNAUTHORIZED_CLOSE_CODE, reason);
        resolve(undefined);
      };
      const onMessage = (data: unknown, isBinary: boolean) => {
        const hello = isBinary ? undefined : parseHello(data);
        if (!hello) return refuse('expected a hello message');
        const sessionId = hello.token ? this.policy.sessionForToken(hello.token) : trustedUpgrade ? randomUUID() : undefined;
        if (!sessionId) return refuse('unauthorized');
        clearTimeout(timer);
        socket.off('message', onMessage);
        this.open += 1;
        socket.on('close', () => {
          this.open -= 1;
        });
        resolve({ sessionId, hasAssets: hello.has_assets ?? [], hello });
      };
      const timer = setTimeout(() => refuse('hello timeout'), this.timeoutMs);
      socket.on('message', onMessage);
      socket.on('close', () => {
        clearTimeout(timer);
        resolve(undefined);
      });
    });
  }
}

function parseHello(data: unknown): Hello | undefined {
  try {
    const text = Buffer.isBuffer(data) ? data.toString('utf8') : String(data);
    const result = HelloSchema.safeParse(JSON.parse(text));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}
