import type { Transformer } from 'grammy';
import { type ClockPort, waitOn } from '../../src/components/contract.ts';

/** Attempts of one call while Telegram answers 429: the first and two retries. */
const ATTEMPTS = 3;
/** A longer `retry_after` fails the call instead: a reply minutes late is worse than the logged failure. */
const MAX_WAIT_S = 60;

/**
 * Honours Telegram's flood control: a call answered `429 Too Many Requests` with
 * `parameters.retry_after` is sent again after that many seconds. getUpdates is left to grammY's
 * polling, which already waits `retry_after` itself.
 */
export function floodControl(clock: ClockPort, onWait: (method: string, seconds: number) => void): Transformer {
  return async (prev, method, payload, signal) => {
    for (let attempt = 1; ; attempt += 1) {
      const response = await prev(method, payload, signal);
      const wait = response.ok ? undefined : response.parameters?.retry_after;
      if (wait === undefined || response.ok || response.error_code !== 429 || method === 'getUpdates') return response;
      if (attempt >= ATTEMPTS || wait > MAX_WAIT_S) return response;
      onWait(method, wait);
      // grammY types its signal with the abort-controller polyfill's type; it has the same members.
      await waitOn(clock, wait * 1000, signal as AbortSignal | undefined);
      if (signal?.aborted) return response;
    }
  };
}
