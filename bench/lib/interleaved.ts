import { performance } from 'node:perf_hooks';

export interface Timed {
  /** Operations per second of busy time. */
  perSecond: number;
  /** Each operation's time, in milliseconds. */
  samples: number[];
}

/**
 * Runs ours and the baseline alternately, one operation each, so both see the same machine noise
 * (other processes, GC, checkpoints) instead of one phase getting the quiet minute.
 */
export async function interleaved(
  count: number,
  baseline: (index: number) => Promise<unknown>,
  ours: (index: number) => Promise<unknown>,
): Promise<{ baseline: Timed; ours: Timed }> {
  const samples = { baseline: [] as number[], ours: [] as number[] };
  for (let index = 0; index < count; index += 1) {
    let at = performance.now();
    await baseline(index);
    samples.baseline.push(performance.now() - at);
    at = performance.now();
    await ours(index);
    samples.ours.push(performance.now() - at);
  }
  const timed = (list: number[]): Timed => ({ perSecond: list.length / (list.reduce((sum, value) => sum + value, 0) / 1000), samples: list });
  return { baseline: timed(samples.baseline), ours: timed(samples.ours) };
}
