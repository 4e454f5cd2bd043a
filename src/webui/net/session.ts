import { keyHeaders } from './api-key.ts';

export interface SessionGrant {
  session_id: string;
  token: string;
  expires_at: string;
}

let current: Promise<SessionGrant> | undefined;

async function requestSession(): Promise<SessionGrant> {
  const response = await fetch('/api/session', { method: 'POST', headers: { ...keyHeaders(), 'content-type': 'application/json' }, body: '{}' });
  if (!response.ok) throw new Error(`POST /api/session: ${response.status}`);
  return (await response.json()) as SessionGrant;
}

/**
 * The page's session token (`POST /api/session`), fetched once and renewed on demand. The socket hello
 * and every API call carry it, so the page never leans on the server trusting its address.
 */
export function session(renew = false): Promise<SessionGrant> {
  if (!current || renew) {
    current = requestSession();
    current.catch(() => (current = undefined));
  }
  return current;
}

/** The token as a header, or none while the server refuses this browser a session (it needs the key). */
export async function sessionHeaders(): Promise<Record<string, string>> {
  try {
    return { authorization: `Bearer ${(await session()).token}` };
  } catch {
    return {};
  }
}
