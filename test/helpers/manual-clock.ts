import type { Clock, TimerHandle } from '../../src/body/clock.ts';

interface Timer {
  id: number;
  at: number;
  callback: () => void;
  every: number | undefined;
}

/** A clock that moves only when a test advances it; timers fire in time order. */
export class ManualClock implements Clock {
  private time: number;
  private nextId = 1;
  private readonly timers = new Map<number, Timer>();

  constructor(start = Date.UTC(2025, 0, 1, 12, 0, 0)) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    return this.add(callback, ms, undefined);
  }

  setInterval(callback: () => void, ms: number): TimerHandle {
    return this.add(callback, ms, ms);
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers.delete(handle as number);
  }

  clearInterval(handle: TimerHandle): void {
    this.timers.delete(handle as number);
  }

  /** Pending timers (intervals included). */
  pending(): number {
    return this.timers.size;
  }

  /** When the earliest pending timer falls due, or undefined with none. */
  nextDue(): number | undefined {
    const times = [...this.timers.values()].map((timer) => timer.at);
    return times.length === 0 ? undefined : Math.min(...times);
  }

  /** Moves time forward, firing every timer that falls due on the way. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = [...this.timers.values()].filter((timer) => timer.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.time = due.at;
      if (due.every === undefined) this.timers.delete(due.id);
      else due.at += due.every;
      due.callback();
    }
    this.time = end;
  }

  private add(callback: () => void, ms: number, every: number | undefined): number {
    const id = this.nextId++;
    this.timers.set(id, { id, at: this.time + Math.max(0, ms), callback, every });
    return id;
  }
}
