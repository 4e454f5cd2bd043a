/** Messages one conversation may have waiting; beyond it new ones are refused (a flood, not a chat). */
export const MAX_PENDING_PER_CONVERSATION = 20;

interface Lane {
  jobs: Array<() => Promise<void>>;
  running: boolean;
}

/**
 * One ordered lane per conversation: a conversation's messages run one after another, different
 * conversations run side by side, at most `parallel()` at once (CHAT_MAX_PARALLEL).
 */
export class ConversationQueue {
  private readonly lanes = new Map<string, Lane>();
  /** Lanes with work, waiting for a free slot, oldest first. */
  private readonly ready: string[] = [];
  private running = 0;

  /** `parallel` is read at each start, so a configuration change applies to the next message. */
  constructor(
    private readonly parallel: () => number,
    private readonly maxPending = MAX_PENDING_PER_CONVERSATION,
  ) {}

  /** False when the conversation already has `maxPending` messages waiting. */
  push(key: string, job: () => Promise<void>): boolean {
    const lane = this.lanes.get(key) ?? { jobs: [], running: false };
    if (lane.jobs.length >= this.maxPending) return false;
    this.lanes.set(key, lane);
    lane.jobs.push(job);
    if (!lane.running && !this.ready.includes(key)) this.ready.push(key);
    this.pump();
    return true;
  }

  /** Messages being answered or waiting, across every conversation. */
  get size(): number {
    let size = 0;
    for (const lane of this.lanes.values()) size += lane.jobs.length + (lane.running ? 1 : 0);
    return size;
  }

  private pump(): void {
    while (this.running < this.parallel() && this.ready.length > 0) {
      const key = this.ready.shift() as string;
      const lane = this.lanes.get(key);
      const job = lane?.jobs.shift();
      if (!lane || !job) continue;
      lane.running = true;
      this.running += 1;
      void job()
        .catch(() => undefined)
        .finally(() => {
          lane.running = false;
          this.running -= 1;
          if (lane.jobs.length > 0) this.ready.push(key);
          else this.lanes.delete(key);
          this.pump();
        });
    }
  }
}
