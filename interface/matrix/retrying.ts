import { setTimeout as delay } from 'node:timers/promises';
import { calculateRetryBackoff } from 'matrix-js-sdk';

/**
 * Runs a request again as the SDK retries its own sends: after a 429 as long as `retry_after_ms` (or
 * Retry-After) says, after a 5xx with backoff, at most four times; a client error fails at once.
 */
export async function retrying<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      const wait = calculateRetryBackoff(error, attempt, false);
      if (wait < 0) throw error;
      await delay(wait);
    }
  }
}
