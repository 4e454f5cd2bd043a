import type { Clock } from '../body/clock.ts';

export interface LinkedSignal {
  signal: AbortSignal;
  /** Stops the timer and the listeners on the sources; call it once the work is over. */
  dispose(): void;
}

/**
 * A signal that aborts with the first of `sources` to abort, or with `deadline.reason()` once
 * `deadline.ms` has passed on `deadline.clock`. A timer on the process's clock and listeners rather than
 * AbortSignal.any over AbortSignal.timeout: tests drive the deadline by hand, and on Node 20 that pair can
 * be collected before its timer fires.
 */
export function linkedSignal(sources: Array<AbortSignal | undefined>, deadline?: { ms: number; reason: () => Error; clock: Clock }): LinkedSignal {
  const controller = new AbortController();
  const listening: AbortSignal[] = [];
  const abort = (reason: unknown) => {
    if (!controller.signal.aborted) controller.abort(reason);
  };
  const onAbort = function (this: AbortSignal) {
    abort(this.reason);
  };
  for (const source of sources) {
    if (!source) continue;
    if (source.aborted) {
      abort(source.reason);
      break;
    }
    source.addEventListener('abort', onAbort, { once: true });
    listening.push(source);
  }
  const timer = deadline && deadline.ms > 0 && !controller.signal.aborted ? deadline.clock.setTimeout(() => abort(deadline.reason()), deadline.ms) : undefined;
  return {
    signal: controller.signal,
    dispose() {
      if (timer !== undefined) deadline?.clock.clearTimeout(timer);
      for (const source of listening) source.removeEventListener('abort', onAbort);
    },
  };
}
