import { z } from 'zod';
import { type ClockPort, type ComponentContext, type OAuthToken, TokenRefusedError, waitOn } from '../../src/components/contract.ts';

/** A refused token: trying again with it would only be refused again. */
export class XAuthError extends Error {}

const UserSchema = z.object({ id: z.string(), name: z.string(), username: z.string() });
const TweetSchema = z.object({ id: z.string(), text: z.string(), author_id: z.string().optional(), conversation_id: z.string().optional() });
const MentionsSchema = z.object({
  data: z.array(TweetSchema).default([]),
  includes: z.object({ users: z.array(UserSchema).default([]) }).default({ users: [] }),
  meta: z.object({ result_count: z.number(), newest_id: z.string().optional() }),
});
export type Tweet = z.infer<typeof TweetSchema>;
export type XUser = z.infer<typeof UserSchema>;
export type Mentions = z.infer<typeof MentionsSchema>;

/** Milliseconds until the window of `x-rate-limit-reset` (epoch seconds) when none remain, else 0. */
export function holdFor(headers: Headers, now: number): number {
  const remaining = Number.parseInt(headers.get('x-rate-limit-remaining') ?? '', 10);
  const reset = Number.parseInt(headers.get('x-rate-limit-reset') ?? '', 10);
  if (!Number.isFinite(remaining) || !Number.isFinite(reset) || remaining > 0) return 0;
  return Math.max(0, reset * 1000 - now);
}

/**
 * The X API v2 endpoints the client uses, with a user access token (OAuth 2.0 user context, renewed with
 * the refresh token when X answers 401): the account's id by its user name, its mentions after
 * `since_id`, and replies. Each endpoint has its own
 * rate-limit window (`x-rate-limit-remaining`, `x-rate-limit-reset`): a spent one holds that endpoint's
 * next request, on the host's clock, until it resets.
 */
export class XApi {
  private readonly heldUntil = new Map<string, number>();

  constructor(
    private readonly settings: { token: OAuthToken; baseUrl: string },
    private readonly deps: { clock: ClockPort; logger: ComponentContext['logger']; signal: AbortSignal },
  ) {}

  async userByName(username: string): Promise<XUser> {
    const answer = await this.call('users/by/username', 'GET', `/2/users/by/username/${encodeURIComponent(username)}`);
    return z.object({ data: UserSchema }).parse(answer).data;
  }

  async mentions(userId: string, sinceId: string | undefined): Promise<Mentions> {
    const query = new URLSearchParams({
      max_results: '100',
      expansions: 'author_id',
      'tweet.fields': 'author_id,conversation_id,created_at',
      'user.fields': 'username',
      ...(sinceId ? { since_id: sinceId } : {}),
    });
    return MentionsSchema.parse(await this.call('mentions', 'GET', `/2/users/${userId}/mentions?${query}`));
  }

  /** Posts `text` as a reply to the tweet; returns the new tweet's id. */
  async reply(text: string, inReplyTo: string): Promise<string> {
    const answer = await this.call('tweets', 'POST', '/2/tweets', { text, reply: { in_reply_to_tweet_id: inReplyTo } });
    return z.object({ data: z.object({ id: z.string() }) }).parse(answer).data.id;
  }

  private async call(endpoint: string, method: 'GET' | 'POST', path: string, body?: unknown, renewed = false): Promise<unknown> {
    const { clock, logger, signal } = this.deps;
    const wait = (this.heldUntil.get(endpoint) ?? 0) - clock.now();
    if (wait > 0) {
      logger.info({ endpoint, wait_s: wait / 1000 }, 'X rate limit spent; waiting for the window to reset');
      await waitOn(clock, wait, signal);
      if (signal.aborted) throw new Error('the X interface stopped');
    }
    const response = await fetch(`${this.settings.baseUrl.replace(/\/+$/, '')}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${await this.accessToken(() => this.settings.token.current())}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal,
    });
    const hold = holdFor(response.headers, clock.now());
    if (hold > 0) this.heldUntil.set(endpoint, clock.now() + hold);
    if (response.status === 401 && !renewed) {
      await this.accessToken(() => this.settings.token.renew());
      return this.call(endpoint, method, path, body, true);
    }
    if (response.status === 401 || response.status === 403) {
      throw new XAuthError(`X refused the token (${response.status} on ${method} ${path.split('?')[0]}); set a valid X_ACCESS_TOKEN`);
    }
    if (!response.ok) throw new Error(`X answered ${response.status} to ${method} ${path.split('?')[0]}`);
    return response.json();
  }

  /** The token, or a refused renewal as an `XAuthError` (polling stops until new settings). */
  private async accessToken(get: () => Promise<string>): Promise<string> {
    try {
      return await get();
    } catch (error) {
      if (!(error instanceof TokenRefusedError)) throw error;
      throw new XAuthError(`X refused the token and it could not be renewed: ${error.message}; set a valid X_ACCESS_TOKEN or X_REFRESH_TOKEN`);
    }
  }
}
