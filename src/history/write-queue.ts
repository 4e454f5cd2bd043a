import { systemClock, type Clock, type TimerHandle } from '../body/clock.ts';
import type { Logger } from '../logging.ts';
import { isTransientDatabaseError } from '../db/driver-errors.ts';

export interface RetryPolicy {
  /** Writes held while the database is away; beyond it the oldest is dropped (and logged). */
  capacity: number;
  initialDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { capacity: 5000, initialDelayMs: 500, maxDelayMs: 30_000 };

export type WriteOutcome<R> = { status: 'written'; result: R } | { status: 'queued' };

type Log = Pick<Logger, 'info' | 'warn' | 'error'>;

export interface WriteQueueHooks {
  /** What the log lines call the writes' store; `chat history` by default. */
  store?: string;
  /** The retry timer's clock (tests drive it by hand). */
  clock?: Clock;
  /** Told when the database stops or starts answering (a transient failure, then the next write that succeeds). */
  onReachability?: (reachable: boolean) => void;
}

/**
 * Runs writes now when it can, and holds them in a bounded FIFO retried with exponential backoff while
 * the database is unreachable. Nothing is dropped without an error in the log. While anything is queued,
 * new writes queue behind it: a database that just failed is not hammered, and order is kept.
 */
export class WriteQueue<T, R = void> {
  private readonly pending: T[] = [];
  private timer: TimerHandle | undefined;
  private delay: number;
  private running: Promise<void> | undefined;
  private stopped = false;
  private readonly clock: Clock;
  private unreachableAt: number | undefined;
  private readonly store: string;

  constructor(
    private readonly write: (item: T) => Promise<R>,
    private readonly describe: (item: T) => Record<string, unknown>,
    private readonly log: Log,
    private readonly policy: RetryPolicy = DEFAULT_RETRY_POLICY,
    private readonly hooks: WriteQueueHooks = {},
  ) {
    this.delay = policy.initialDelayMs;
    this.clock = hooks.clock ?? systemClock;
    this.store = hooks.store ?? 'chat history';
  }

  get size(): number {
    return this.pending.length;
  }

  /** The writes waiting, oldest first. */
  get queued(): readonly T[] {
    return this.pending;
  }

  /** When a write last failed for want of a database (epoch ms, on the queue's clock); undefined while it answers. */
  get unreachableSince(): number | undefined {
    return this.unreachableAt;
  }

  private reachable(yes: boolean): void {
    if (yes === (this.unreachableAt === undefined)) return;
    this.unreachableAt = yes ? undefined : this.clock.now();
    this.hooks.onReachability?.(yes);
  }

  /** Writes now, or queues when the database is unreachable; a non-transient error is thrown. */
  async submit(item: T): Promise<WriteOutcome<R>> {
    if (this.pending.length === 0 && !this.stopped) {
      try {
        const result = await this.write(item);
        this.reachable(true);
        return { status: 'written', result };
      } catch (error) {
        if (!isTransientDatabaseError(error)) throw error;
        this.reachable(false);
        this.log.warn({ err: error, ...this.describe(item) }, `${this.store} database unreachable; the message is queued for retry`);
      }
    }
    this.enqueue(item);
    return { status: 'queued' };
  }

  private enqueue(item: T): void {
    this.pending.push(item);
    if (this.pending.length > this.policy.capacity) {
      const dropped = this.pending.shift() as T;
      this.log.error({ ...this.describe(dropped), capacity: this.policy.capacity }, `${this.store} retry queue is full; dropped its oldest message`);
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.running || this.stopped) return;
    // The system clock's timers are unref'd: a retry never keeps the process alive.
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      void this.drain();
    }, this.delay);
  }

  /** Writes queued items in order until one fails for want of a database, then backs off. */
  drain(): Promise<void> {
    this.running ??= this.drainOnce().finally(() => {
      this.running = undefined;
      if (this.pending.length > 0) this.schedule();
    });
    return this.running;
  }

  private async drainOnce(): Promise<void> {
    let written = 0;
    while (this.pending.length > 0) {
      const item = this.pending[0] as T;
      try {
        await this.write(item);
        written += 1;
        this.reachable(true);
      } catch (error) {
        if (isTransientDatabaseError(error)) {
          this.reachable(false);
          this.delay = Math.min(this.delay * 2, this.policy.maxDelayMs);
          this.log.warn({ err: error, queued: this.pending.length, retry_in_ms: this.delay }, `${this.store} database still unreachable`);
          return;
        }
        this.log.error({ err: error, ...this.describe(item) }, `a queued ${this.store} message was rejected by the database and dropped`);
      }
      this.pending.shift();
    }
    this.delay = this.policy.initialDelayMs;
    if (written > 0) this.log.info({ written }, `${this.store} database is back; queued messages written`);
  }

  /** Stops retrying after one last attempt; whatever is still queued is logged as lost. */
  async stop(): Promise<void> {
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.stopped = true;
    if (this.pending.length > 0) await this.drain();
    if (this.pending.length > 0) {
      this.log.error({ lost: this.pending.length, messages: this.pending.map(this.describe) }, `stopping with ${this.store} messages the database never took`);
    }
  }
}
