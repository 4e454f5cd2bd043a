import { postJson } from './api.ts';

export interface SessionGrant {
  session_id: string;
  token: string;
  expires_at: string;
}

let current: Promise<SessionGrant> | undefined;

/** The page's session token for the socket hello (`POST /api/session`), fetched once and renewed on demand. */
export function session(renew = false): Promise<SessionGrant> {
  if (!current || renew) {
    current = postJson<SessionGrant>('/api/session', {});
    current.catch(() => (current = undefined));
  }
  return current;
}
