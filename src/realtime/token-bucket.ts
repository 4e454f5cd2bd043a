/** A per-socket message budget: `capacity` at once, refilled at `perSecond`. */
export class TokenBucket {
  private tokens: number;
  private refilledAt: number;

  constructor(
    private readonly capacity: number,
    private readonly perSecond: number,
    /** The process's clock (`Clock.now`), so a test refills the bucket by moving time. */
    private readonly now: () => number,
  ) {
    this.tokens = capacity;
    this.refilledAt = now();
  }

  /** Spends one token; false when the budget is exhausted. */
  take(): boolean {
    const now = this.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.refilledAt) / 1000) * this.perSecond);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
