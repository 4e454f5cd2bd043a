/** An opaque timer handle; only the clock that made it can cancel it. */
export type TimerHandle = unknown;

/**
 * Every timer of the body-state server goes through a Clock, so tests drive time by hand (or with
 * vitest's fake timers) and nothing waits on the wall clock.
 */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
  setInterval(callback: () => void, ms: number): TimerHandle;
  clearInterval(handle: TimerHandle): void;
}

/** The real clock. Looked up at call time, so vitest's fake timers replace it too. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    // A pending body timer (audio clear, idle rotation) must never keep the process alive.
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  setInterval: (callback, ms) => {
    const handle = setInterval(callback, ms);
    handle.unref?.();
    return handle;
  },
  clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
};

/** A random source in [0, 1); injectable so tests pick variants and rotation delays deterministically. */
export type Random = () => number;
