/** The timers polling needs: the host's clock, as components get it (the contract's `ClockPort`). */
interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface PollingOptions {
  clock: Timers;
  /** Read before each wait, so a changed interval applies from the next look. */
  intervalMs(): number;
  /** One look (an inbox, a mentions timeline); aborted when polling stops. */
  poll(signal: AbortSignal): Promise<void>;
  /** A look failed: `stop` ends polling until `restart` (a refused login), `retry` tries again after the interval. */
  failed(error: unknown): 'stop' | 'retry';
}

/**
 * A platform polled on the host's clock (Reddit's inbox, X's mentions): one look at start, then one an
 * interval after the previous look ended, so looks never overlap; `restart` begins again at once (new
 * credentials). Tests drive it with a manual clock.
 */
export class PollingLoop {
  private controller: AbortController | undefined;
  private timer: unknown;

  constructor(private readonly options: PollingOptions) {}

  start(): void {
    this.stop();
    const controller = new AbortController();
    this.controller = controller;
    void this.look(controller.signal);
  }

  restart(): void {
    this.start();
  }

  stop(): void {
    this.controller?.abort();
    this.controller = undefined;
    if (this.timer !== undefined) this.options.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async look(signal: AbortSignal): Promise<void> {
    try {
      await this.options.poll(signal);
    } catch (error) {
      if (signal.aborted || this.options.failed(error) === 'stop') return;
    }
    if (!signal.aborted) this.timer = this.options.clock.setTimeout(() => void this.look(signal), this.options.intervalMs());
  }
}

/** Waits `ms` on the host's clock; resolves early when `signal` aborts. */
export function waitOn(clock: Timers, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted || ms <= 0) return resolve();
    const aborted = () => {
      clock.clearTimeout(timer);
      resolve();
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }, ms);
    signal?.addEventListener('abort', aborted, { once: true });
  });
}
