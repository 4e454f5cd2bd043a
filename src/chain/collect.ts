/** Thrown when the deadline passes or the chain stops while an engine is still answering. */
export class GenerationAbortedError extends Error {}

/**
 * Reads an engine's stream to the end. Abort wins even over an engine that ignores its signal: the
 * pending read is abandoned and the iterator is asked to return.
 */
export async function collectStream(stream: AsyncIterable<string>, signal: AbortSignal, onDelta?: (delta: string) => void): Promise<string> {
  const iterator = stream[Symbol.asyncIterator]();
  const abortError = () => new GenerationAbortedError(signal.reason instanceof Error ? signal.reason.message : 'generation aborted');
  /** Fails the read in progress; one promise per read rather than a race (its array, promise and two reactions). */
  let failRead: ((error: Error) => void) | undefined;
  const abort = () => failRead?.(abortError());
  signal.addEventListener('abort', abort, { once: true });
  const read = () =>
    new Promise<IteratorResult<string>>((resolve, reject) => {
      failRead = reject;
      iterator.next().then(resolve, reject);
    });
  let text = '';
  try {
    for (;;) {
      if (signal.aborted) throw abortError();
      const next = await read();
      if (next.done) return text;
      text += next.value;
      onDelta?.(next.value);
    }
  } finally {
    signal.removeEventListener('abort', abort);
    if (signal.aborted) void Promise.resolve(iterator.return?.()).catch(() => undefined);
  }
}
