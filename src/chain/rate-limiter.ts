export interface RateLimits {
  /** Messages one user may send back to back. */
  burst: number;
  /** Messages per minute after the burst. */
  perMinute: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterMs: number };

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Per-user token buckets: a full bucket holds `burst` messages and refills at `perMinute`. The limits
 * are read at each call so a configuration change applies at once. Idle full buckets are forgotten.
 */
export class UserRateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly limits: () => RateLimits,
    /** The process's clock (`Clock.now`). */
    private readonly now: () => number,
  ) {}

  take(user: string): RateDecision {
    const { burst, perMinute } = this.limits();
    const now = this.now();
    const perMs = perMinute / 60_000;
    const bucket = this.buckets.get(user) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + (now - bucket.at) * perMs);
    bucket.at = now;
    this.sweep(now, burst, perMs);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      this.buckets.set(user, bucket);
      return { allowed: true };
    }
    this.buckets.set(user, bucket);
    return { allowed: false, retryAfterMs: Math.ceil((1 - bucket.tokens) / perMs) };
  }

  /** Gives back the message `take` just counted: it turned out not to count (an attention command). */
  refund(user: string): void {
    const bucket = this.buckets.get(user);
    if (bucket) bucket.tokens = Math.min(this.limits().burst, bucket.tokens + 1);
  }

  private sweep(now: number, burst: number, perMs: number): void {
    if (this.buckets.size < 10_000) return;
    for (const [user, bucket] of this.buckets) if (bucket.tokens + (now - bucket.at) * perMs >= burst) this.buckets.delete(user);
  }
}
