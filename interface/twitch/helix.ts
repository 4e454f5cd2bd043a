import { type ClockPort, type ComponentContext, waitOn, withTimeout } from '../../src/components/contract.ts';
import type { TwitchSettings } from './settings.ts';

/** Attempts of one call while Helix answers 429: the first and two retries. */
const ATTEMPTS = 3;
/** A longer wait for the bucket to refill fails the call instead: a chat reply a minute late is worse. */
const MAX_WAIT_MS = 60_000;
const TIMEOUT_MS = 30_000;

export class HelixError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface HelixUser {
  id: string;
  login: string;
  display_name: string;
}

export interface SentChatMessage {
  message_id: string;
  is_sent: boolean;
  drop_reason?: { code: string; message: string } | null;
}

export interface HelixOptions {
  settings(): TwitchSettings;
  clock: ClockPort;
  logger: ComponentContext['logger'];
  /** Helix refused the token (401): it may have expired or been revoked. */
  unauthorized(): void;
}

/**
 * Twitch's Helix API as the interface needs it: `Client-Id` and `Authorization: Bearer` on every call, and a
 * 429 retried once its token bucket refills (`Ratelimit-Reset`, a Unix time in seconds), on the host's clock.
 */
export class Helix {
  constructor(private readonly options: HelixOptions) {}

  /** The user the access token belongs to (no `login`), or the named user; undefined when none has that login. */
  async user(login?: string): Promise<HelixUser | undefined> {
    const query = login === undefined ? '' : `?login=${encodeURIComponent(login)}`;
    const { data } = await this.call<{ data: HelixUser[] }>('GET', `/users${query}`);
    return data[0];
  }

  /** Subscribes this EventSub WebSocket session to one event type. */
  async subscribe(type: string, version: string, condition: Record<string, string>, sessionId: string): Promise<void> {
    await this.call('POST', '/eventsub/subscriptions', { type, version, condition, transport: { method: 'websocket', session_id: sessionId } });
  }

  async sendChatMessage(message: { broadcaster_id: string; sender_id: string; message: string; reply_parent_message_id?: string }): Promise<SentChatMessage> {
    const { data } = await this.call<{ data: SentChatMessage[] }>('POST', '/chat/messages', message);
    const sent = data[0];
    if (!sent) throw new HelixError(200, 'Helix answered POST /chat/messages without a result');
    return sent;
  }

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      const answer = await withTimeout(this.options.clock, TIMEOUT_MS, (signal) => this.attempt<T>(method, path, body, signal));
      if ('value' in answer) return answer.value;
      const wait = answer.waitMs;
      if (wait === undefined || wait > MAX_WAIT_MS || attempt >= ATTEMPTS) throw new HelixError(429, `429 rate limited on ${method} ${path}`);
      this.options.logger.warn({ path, wait_ms: wait }, 'Twitch rate limit: waiting for Ratelimit-Reset before retrying');
      await waitOn(this.options.clock, wait);
    }
  }

  /** One request, its answer read within the same deadline: the value, or how long a 429 asks to wait. */
  private async attempt<T>(method: 'GET' | 'POST', path: string, body: unknown, signal: AbortSignal): Promise<{ value: T } | { waitMs: number | undefined }> {
    const { apiBase, clientId, accessToken } = this.options.settings();
    const response = await fetch(`${apiBase}${path}`, {
      method,
      headers: {
        'client-id': clientId,
        authorization: `Bearer ${accessToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal,
    });
    if (response.status === 429) return { waitMs: this.waitOf(response) };
    if (response.status === 401) this.options.unauthorized();
    if (!response.ok) {
      const error = (await response.json().catch(() => ({}))) as { message?: string };
      throw new HelixError(response.status, `${response.status} ${error.message ?? response.statusText} (${method} ${path})`);
    }
    return { value: (await response.json().catch(() => ({}))) as T };
  }

  /** Milliseconds until the bucket refills, from `Ratelimit-Reset`; undefined without a usable header. */
  private waitOf(response: Response): number | undefined {
    const reset = Number(response.headers.get('ratelimit-reset') ?? Number.NaN);
    return Number.isFinite(reset) ? Math.max(0, reset * 1000 - this.options.clock.now()) : undefined;
  }
}
