import { describe, expect, it } from 'vitest';
import { withTimeout } from '../../src/components/with-timeout.ts';
import { ManualClock } from '../helpers/manual-clock.ts';

/** Work that ends only when its signal aborts, with the signal's reason. */
const untilAborted = (signal: AbortSignal) => new Promise<never>((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)));

describe('withTimeout, a deadline on the host clock for a component', () => {
  it('aborts the work with a TimeoutError once the time has passed on the clock, not a moment before', async () => {
    const clock = new ManualClock();
    let seen: AbortSignal | undefined;
    const work = withTimeout(clock, 30_000, (signal) => {
      seen = signal;
      return untilAborted(signal);
    });
    clock.advance(29_999);
    expect(seen?.aborted).toBe(false);
    clock.advance(1);
    await expect(work).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('releases its timer once the work settles, whether it answered or failed', async () => {
    const clock = new ManualClock();
    expect(await withTimeout(clock, 5000, async () => 'answered')).toBe('answered');
    await expect(withTimeout(clock, 5000, async () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(clock.pending()).toBe(0);
  });
});
