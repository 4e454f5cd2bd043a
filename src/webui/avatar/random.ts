/**
 * The face's random choices (blink and saccade intervals, emotion ties, overlay delays and durations)
 * come from here, so a test can seed them and replay a face frame for frame.
 */
let source: () => number = Math.random;

export function random(): number {
  return source();
}

/** A number in [min, max). */
export function uniform(min: number, max: number): number {
  return min + source() * (max - min);
}

/** Test seam: a seeded sequence (mulberry32) from now on, the same in every browser. */
export function seedRandom(seed: number): void {
  let state = seed >>> 0;
  source = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
