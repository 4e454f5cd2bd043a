import type { ClockPort } from '../../../src/components/contract.ts';

/** How often the paced part is topped up; far below the harbor's buffer, so nothing runs dry. */
export const PACING_TICK_MS = 200;

/** Resolves after `ms` on the clock; rejects with the abort reason at once on an abort. */
export function delay(clock: ClockPort, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const abort = () => {
      clock.clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', abort, { once: true });
  });
}

/**
 * How many of `totalBytes` (playing `durationS`) may have left `elapsedMs` after the start: `leadS` of
 * audio at once, then the rest in real time, so the harbor stays `leadS` ahead (within its maximum).
 */
export function bytesDue(totalBytes: number, durationS: number, leadS: number, elapsedMs: number): number {
  if (durationS <= 0) return totalBytes;
  return Math.min(totalBytes, Math.ceil((totalBytes * (leadS + elapsedMs / 1000)) / durationS));
}

/** Sends `bytes` through `send` at the pace `bytesDue` sets; resolves right after the last byte. */
export async function sendPaced(
  bytes: Uint8Array,
  pace: { durationS: number; leadS: number },
  send: (chunk: Uint8Array) => void,
  clock: ClockPort,
  signal?: AbortSignal,
): Promise<void> {
  const startedAt = clock.now();
  const lastByteAtMs = (pace.durationS - pace.leadS) * 1000;
  let sent = 0;
  for (;;) {
    const elapsedMs = clock.now() - startedAt;
    const due = bytesDue(bytes.length, pace.durationS, pace.leadS, elapsedMs);
    if (due > sent) {
      send(bytes.subarray(sent, due));
      sent = due;
    }
    if (sent >= bytes.length) return;
    await delay(clock, Math.max(1, Math.min(PACING_TICK_MS, lastByteAtMs - elapsedMs)), signal);
  }
}
