import { maskCredentials } from '../config/credential-mask.ts';

const HEALTH_TIMEOUT_MS = 3000;

export type StreamerHealth =
  | { status: 'disabled'; checked_at: string }
  | { status: 'ok'; http_status: number; latency_ms: number; checked_at: string }
  | { status: 'unavailable'; reason: string; checked_at: string };

/** Asks the remote-streaming adapter's `/health`; any answer but a 2xx within 3 s is "unavailable". */
export async function checkStreamerHealth(baseUrl: string): Promise<StreamerHealth> {
  const checked_at = new Date().toISOString();
  if (baseUrl.trim() === '') return { status: 'disabled', checked_at };
  const started = performance.now();
  try {
    const response = await fetch(new URL('health', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`), {
      signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (!response.ok) return { status: 'unavailable', reason: `HTTP ${response.status}`, checked_at };
    return { status: 'ok', http_status: response.status, latency_ms: Math.round(performance.now() - started), checked_at };
  } catch (error) {
    const reason = error instanceof Error && error.name === 'TimeoutError' ? 'no answer within 3 s' : (error as Error).message;
    // fetch quotes the URL it refused, credentials and all.
    return { status: 'unavailable', reason: maskCredentials('string', reason), checked_at };
  }
}
