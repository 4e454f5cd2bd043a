import { describe, expect, it } from 'vitest';
import { PollingLoop, waitOn } from '../../src/components/polling.ts';
import { ManualClock } from '../helpers/manual-clock.ts';

/** Lets the loop's promise callbacks run (no time passes on any clock). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('PollingLoop', () => {
  const loop = (clock: ManualClock, poll: () => Promise<void>, failed: (error: unknown) => 'stop' | 'retry' = () => 'retry') =>
    new PollingLoop({ clock, intervalMs: () => 30_000, poll, failed });

  it('looks at start, then one interval after each look ended', async () => {
    const clock = new ManualClock();
    let looks = 0;
    const polling = loop(clock, async () => {
      looks += 1;
    });
    polling.start();
    await settle();
    expect(looks).toBe(1);
    clock.advance(29_999);
    await settle();
    expect(looks).toBe(1);
    clock.advance(1);
    await settle();
    expect(looks).toBe(2);
    polling.stop();
    expect(clock.pending()).toBe(0);
  });

  it('retries a failed look after the interval, and stops for good when told', async () => {
    const clock = new ManualClock();
    const verdicts: Array<'stop' | 'retry'> = ['retry', 'stop'];
    let looks = 0;
    const polling = loop(
      clock,
      async () => {
        looks += 1;
        throw new Error('refused');
      },
      () => verdicts.shift() ?? 'stop',
    );
    polling.start();
    await settle();
    expect(clock.pending()).toBe(1);
    clock.advance(30_000);
    await settle();
    expect(looks).toBe(2);
    expect(clock.pending()).toBe(0);
  });

  it('waitOn resolves after the time on the clock, or at once when aborted', async () => {
    const clock = new ManualClock();
    const controller = new AbortController();
    let done = false;
    const waiting = waitOn(clock, 60_000, controller.signal).then(() => {
      done = true;
    });
    clock.advance(59_000);
    await settle();
    expect(done).toBe(false);
    controller.abort();
    await waiting;
    expect(clock.pending()).toBe(0);
  });
});
