import type { Clock } from '../body/clock.ts';
import { linkedSignal } from '../chain/linked-signal.ts';
import { maskCredentials } from '../config/credential-mask.ts';

const HEALTH_TIMEOUT_MS = 3000;

export type StreamerHealth =
  | { status: 'disabled'; checked_at: string }
  | { status: 'ok'; http_status: number; latency_ms: number; checked_at: string }
  | { status: 'unavailable'; reason: string; checked_at: string };

/** Asks the remote-streaming adapter's `/health`; any answer but a 2xx within 3 s is "unavailable". */
export async function checkStreamerHealth(baseUrl: string, clock: Clock): Promise<StreamerHealth> {
  const checked_at = new Date().toISOString();
  if (baseUrl.trim() === '') return { status: 'disabled', checked_at };
  const started = performance.now();
  const deadline = linkedSignal([], { ms: HEALTH_TIMEOUT_MS, reason: () => new Error(`no answer within ${HEALTH_TIMEOUT_MS / 1000} s`), clock });
  try {
    const response = await fetch(new URL('health', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`), { signal: deadline.signal });
    await response.body?.cancel();
    if (!response.ok) return { status: 'unavailable', reason: `HTTP ${response.status}`, checked_at };
    return { status: 'ok', http_status: response.status, latency_ms: Math.round(performance.now() - started), checked_at };
  } catch (error) {
    // fetch quotes the URL it refused, credentials and all.
    return { status: 'unavailable', reason: maskCredentials('string', (error as Error).message), checked_at };
  } finally {
    deadline.dispose();
  }
}
