/** Thrown when the deadline passes or the chain stops while an engine is still answering. */
export class GenerationAbortedError extends Error {}

/**
 * Reads an engine's stream to the end. Abort wins even over an engine that ignores its signal: the
 * pending read is abandoned and the iterator is asked to return.
 */
export async function collectStream(stream: AsyncIterable<string>, signal: AbortSignal, onDelta?: (delta: string) => void): Promise<string> {
  const iterator = stream[Symbol.asyncIterator]();
  let abort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    abort = () => reject(new GenerationAbortedError(signal.reason instanceof Error ? signal.reason.message : 'generation aborted'));
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
  });
  aborted.catch(() => undefined);
  let text = '';
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), aborted]);
      if (next.done) return text;
      text += next.value;
      onDelta?.(next.value);
    }
  } finally {
    if (abort) signal.removeEventListener('abort', abort);
    if (signal.aborted) void Promise.resolve(iterator.return?.()).catch(() => undefined);
  }
}
