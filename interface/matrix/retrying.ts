import { calculateRetryBackoff } from 'matrix-js-sdk';
import { type ClockPort, waitOn } from '../../src/components/contract.ts';

/**
 * Runs a request again as the SDK retries its own sends: after a 429 as long as `retry_after_ms` (or
 * Retry-After) says, after a 5xx with backoff, at most four times; a client error fails at once.
 */
export async function retrying<T>(clock: ClockPort, call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      const wait = calculateRetryBackoff(error, attempt, false);
      if (wait < 0) throw error;
      await waitOn(clock, wait);
    }
  }
}
