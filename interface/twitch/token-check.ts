import { z } from 'zod';
import { type ClockPort, withTimeout } from '../../src/components/contract.ts';
import type { TwitchSettings } from './settings.ts';

const TIMEOUT_MS = 30_000;

const ValidSchema = z.object({
  client_id: z.string(),
  login: z.string().optional(),
  user_id: z.string().optional(),
  scopes: z.array(z.string()).nullable().default([]),
  expires_in: z.number(),
});
const RefusalSchema = z.object({ status: z.number().optional(), message: z.string() });

/** What Twitch says of the token: usable, or refused with the reason to show the operator. */
export type TokenCheck = { valid: true; expiresInS: number } | { valid: false; reason: string };

/**
 * `GET /oauth2/validate` (Twitch asks every app to call it at start and hourly): a 401 means the token
 * expired or was revoked; a token of another application than TWITCH_CLIENT_ID is refused by Helix, so it is
 * refused here too. A network failure throws: it says nothing of the token.
 */
export async function checkToken(settings: TwitchSettings, clock: ClockPort): Promise<TokenCheck> {
  const { response, body } = await withTimeout(clock, TIMEOUT_MS, async (signal) => {
    const response = await fetch(`${settings.authBase}/validate`, { headers: { authorization: `OAuth ${settings.accessToken}` }, signal });
    return { response, body: (await response.json().catch(() => ({}))) as unknown };
  });
  if (response.status === 401) {
    const refusal = RefusalSchema.safeParse(body);
    return { valid: false, reason: `TWITCH_ACCESS_TOKEN is expired or revoked (Twitch: ${refusal.success ? refusal.data.message : '401'})` };
  }
  if (!response.ok) throw new Error(`Twitch's token validation answered ${response.status}`);
  const token = ValidSchema.parse(body);
  if (token.client_id !== settings.clientId) {
    return { valid: false, reason: `TWITCH_ACCESS_TOKEN belongs to the application ${token.client_id}, not TWITCH_CLIENT_ID` };
  }
  return { valid: true, expiresInS: token.expires_in };
}
