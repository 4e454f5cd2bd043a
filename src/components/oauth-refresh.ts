import { z } from 'zod';
import type { ClockPort } from './ports.ts';
import { withTimeout } from './with-timeout.ts';

/** The token endpoint refused the grant (revoked, expired, wrong client): asking again would be refused again. */
export class TokenRefusedError extends Error {}

/** An OAuth 2.0 refresh-token grant (RFC 6749 §6). */
export interface RefreshGrant {
  /** The token endpoint (Google's `/token`, X's `/2/oauth2/token`). */
  tokenUrl: string;
  clientId: string;
  /** Empty for a public client. */
  clientSecret: string;
  refreshToken: string;
  /** Where a confidential client's secret goes: the form (Google) or HTTP Basic (X). */
  clientAuth: 'form' | 'basic';
}

const GrantedSchema = z.object({
  access_token: z.string().min(1),
  expires_in: z.coerce.number().positive().optional(),
  refresh_token: z.string().min(1).optional(),
});
const RefusalSchema = z.object({ error: z.string(), error_description: z.string().optional() });

/** Renew this long before the token endpoint said the access token expires. */
const EXPIRY_MARGIN_MS = 60_000;
const TIMEOUT_MS = 30_000;

interface Held {
  value: string;
  /** Host-clock milliseconds; undefined when unknown (a configured token): only a 401 renews it. */
  expiresAt: number | undefined;
}

export interface OAuthTokenOptions {
  /** The access token configured by hand, used until it expires; may be empty when a grant exists. */
  initial: string;
  /** The grant, when refresh credentials are configured (read at each refresh). */
  grant(): RefreshGrant | undefined;
  /** The host's clock: expiry, and the token endpoint's deadline. */
  clock: ClockPort;
  /** The token endpoint gave a new refresh token (X rotates them): keep it for the next refresh. */
  rotated?(refreshToken: string): void | Promise<void>;
}

/**
 * A user access token that renews itself with a refresh token: before its known expiry, and when the API
 * answered 401 (`renew`). Concurrent callers share one refresh. Without refresh credentials `renew` throws
 * `TokenRefusedError`, so an expired hand-made token is reported instead of retried forever.
 */
export class OAuthToken {
  private held: Held | undefined;
  private refreshing: Promise<string> | undefined;

  constructor(private readonly options: OAuthTokenOptions) {
    this.held = options.initial ? { value: options.initial, expiresAt: undefined } : undefined;
  }

  get canRefresh(): boolean {
    return this.options.grant() !== undefined;
  }

  /** The token to send now, refreshed first when it is missing or about to expire. */
  async current(): Promise<string> {
    const held = this.held;
    if (held && (held.expiresAt === undefined || held.expiresAt > this.options.clock.now())) return held.value;
    return this.renew();
  }

  /** A new access token from the token endpoint (after a 401, or at expiry). */
  renew(): Promise<string> {
    this.refreshing ??= this.refresh().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async refresh(): Promise<string> {
    const grant = this.options.grant();
    if (!grant) throw new TokenRefusedError('the access token was refused and no refresh token is configured');
    const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: grant.refreshToken, client_id: grant.clientId });
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    if (grant.clientSecret && grant.clientAuth === 'form') form.set('client_secret', grant.clientSecret);
    if (grant.clientSecret && grant.clientAuth === 'basic')
      headers.authorization = `Basic ${Buffer.from(`${grant.clientId}:${grant.clientSecret}`).toString('base64')}`;
    const { response, body } = await withTimeout(this.options.clock, TIMEOUT_MS, async (signal) => {
      const response = await fetch(grant.tokenUrl, { method: 'POST', headers, body: form, signal });
      return { response, body: (await response.json().catch(() => ({}))) as unknown };
    });
    // 400 and 401 are the endpoint's refusals (invalid_grant, invalid_client); anything else may pass.
    if (response.status === 400 || response.status === 401) {
      const refusal = RefusalSchema.safeParse(body);
      const why = refusal.success ? `${refusal.data.error}${refusal.data.error_description ? `: ${refusal.data.error_description}` : ''}` : response.status;
      throw new TokenRefusedError(`the token endpoint refused the refresh token (${why})`);
    }
    if (!response.ok) throw new Error(`the token endpoint answered ${response.status}`);
    const granted = GrantedSchema.parse(body);
    this.held = {
      value: granted.access_token,
      expiresAt: granted.expires_in === undefined ? undefined : this.options.clock.now() + granted.expires_in * 1000 - EXPIRY_MARGIN_MS,
    };
    if (granted.refresh_token && granted.refresh_token !== grant.refreshToken) await this.options.rotated?.(granted.refresh_token);
    return granted.access_token;
  }
}
