import type { ClockPort } from './ports.ts';

/**
 * Runs `work` with a signal that aborts after `ms` on the host's clock, as `AbortSignal.timeout` would but
 * on a clock tests drive by hand; the timer is released once the work settles, so a finished request
 * leaves none behind. The reason is a `TimeoutError`, as Node's own. (The chain's `linkedSignal` does
 * more, but src/components may not import the chain.)
 */
export async function withTimeout<T>(clock: ClockPort, ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const timer = clock.setTimeout(() => controller.abort(new DOMException(`no answer within ${ms / 1000} s`, 'TimeoutError')), ms);
  try {
    return await work(controller.signal);
  } finally {
    clock.clearTimeout(timer);
  }
}
