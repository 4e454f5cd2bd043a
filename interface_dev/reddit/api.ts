import { z } from 'zod';
import { type ClockPort, type ComponentContext, waitOn } from '../../src/components/contract.ts';

export interface RedditSettings {
  clientId: string;
  clientSecret: string;
  username: string;
  password: string;
  userAgent: string;
  apiBaseUrl: string;
  authBaseUrl: string;
}

/** A refusal of the credentials: retrying with the same settings would only be refused again. */
export class RedditAuthError extends Error {}

const TokenSchema = z.union([z.object({ access_token: z.string().min(1), expires_in: z.number().positive() }), z.object({ error: z.string() })]);
/** Renew the token this long before Reddit says it expires. */
const EXPIRY_MARGIN_MS = 60_000;
/** Requests kept back while the window has this few left, so a reply never meets a 429. */
const RESERVE = 1;

/** What the `X-Ratelimit-*` headers say: requests left in this window, and seconds until it resets. */
export interface RateLimit {
  remaining: number;
  resetS: number;
}

export function rateLimitOf(headers: Headers): RateLimit | undefined {
  const remaining = Number.parseFloat(headers.get('x-ratelimit-remaining') ?? '');
  const resetS = Number.parseFloat(headers.get('x-ratelimit-reset') ?? '');
  return Number.isFinite(remaining) && Number.isFinite(resetS) ? { remaining, resetS } : undefined;
}

/** Milliseconds to hold the next request: none while requests remain, else until the window resets. */
export const holdFor = (limit: RateLimit | undefined): number => (limit && limit.remaining < RESERVE + 1 ? Math.max(0, limit.resetS) * 1000 : 0);

/**
 * Reddit's OAuth2 API for a "script" app: a password-grant token from the auth host (renewed before it
 * expires, and after a 401), bearer calls with the account's User-Agent to the API host, and the
 * `X-Ratelimit-*` headers obeyed: once a window is spent, every request waits (on the host's clock) for
 * its reset.
 */
export class RedditApi {
  private token: { value: string; expiresAt: number } | undefined;
  private heldUntil = 0;

  constructor(
    private readonly settings: RedditSettings,
    private readonly deps: { clock: ClockPort; logger: ComponentContext['logger']; signal: AbortSignal },
  ) {}

  get(path: string, query: Record<string, string> = {}): Promise<unknown> {
    return this.call('GET', `${path}?${new URLSearchParams({ raw_json: '1', ...query })}`);
  }

  /** A form post with `api_type=json`; Reddit's `json.errors` become a thrown Error. */
  async post(path: string, form: Record<string, string>): Promise<unknown> {
    const answer = await this.call('POST', path, new URLSearchParams({ api_type: 'json', ...form }));
    const errors = z.object({ json: z.object({ errors: z.array(z.array(z.unknown())) }) }).safeParse(answer);
    if (errors.success && errors.data.json.errors.length > 0) throw new Error(`Reddit refused ${path}: ${JSON.stringify(errors.data.json.errors)}`);
    return answer;
  }

  private async call(method: 'GET' | 'POST', path: string, body?: URLSearchParams, retried = false): Promise<unknown> {
    await this.waitForWindow();
    const response = await fetch(`${this.settings.apiBaseUrl.replace(/\/+$/, '')}${path}`, {
      method,
      headers: { authorization: `bearer ${await this.accessToken()}`, 'user-agent': this.settings.userAgent },
      ...(body ? { body } : {}),
      signal: this.deps.signal,
    });
    const limit = rateLimitOf(response.headers);
    const hold = holdFor(limit);
    if (hold > 0) this.heldUntil = this.deps.clock.now() + hold;
    if (response.status === 401 && !retried) {
      this.token = undefined;
      return this.call(method, path, body, true);
    }
    if (response.status === 429) this.heldUntil = Math.max(this.heldUntil, this.deps.clock.now() + (limit?.resetS ?? 60) * 1000);
    if (!response.ok) throw new Error(`Reddit answered ${response.status} to ${method} ${path.split('?')[0]}`);
    return response.json();
  }

  private async waitForWindow(): Promise<void> {
    const wait = this.heldUntil - this.deps.clock.now();
    if (wait <= 0) return;
    this.deps.logger.info({ wait_s: wait / 1000 }, 'Reddit rate limit spent; waiting for the window to reset');
    await waitOn(this.deps.clock, wait, this.deps.signal);
    if (this.deps.signal.aborted) throw new Error('the Reddit interface stopped');
  }

  private async accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt > this.deps.clock.now()) return this.token.value;
    const { clientId, clientSecret, username, password, userAgent, authBaseUrl } = this.settings;
    const response = await fetch(`${authBaseUrl.replace(/\/+$/, '')}/api/v1/access_token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`, 'user-agent': userAgent },
      body: new URLSearchParams({ grant_type: 'password', username, password }),
      signal: this.deps.signal,
    });
    if (response.status === 401) throw new RedditAuthError('Reddit refused the app (REDDIT_CLIENT_ID / REDDIT_CLIENT_SECRET)');
    if (!response.ok) throw new Error(`Reddit's token endpoint answered ${response.status}`);
    const token = TokenSchema.parse(await response.json());
    if ('error' in token) throw new RedditAuthError(`Reddit refused the login (${token.error}); check REDDIT_USERNAME and REDDIT_PASSWORD`);
    this.token = { value: token.access_token, expiresAt: this.deps.clock.now() + token.expires_in * 1000 - EXPIRY_MARGIN_MS };
    return token.access_token;
  }
}
