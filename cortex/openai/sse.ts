import type { Readable } from 'node:stream';

/**
 * Server-sent events as the OpenAI streaming API sends them: `data: <json>` lines separated by blank
 * lines, ending with `data: [DONE]`. Each event's data goes to `onData`; comments and other fields are
 * ignored. Lines are scanned in place, so a chunk costs one pass over its own text.
 */
export class SseParser {
  private rest = '';
  private data: string | undefined;

  constructor(private readonly onData: (data: string) => void) {}

  push(text: string): void {
    const buffer = this.rest + text;
    let start = 0;
    for (let newline = buffer.indexOf('\n', start); newline !== -1; newline = buffer.indexOf('\n', start)) {
      this.line(buffer, start, newline > start && buffer.charCodeAt(newline - 1) === 13 ? newline - 1 : newline);
      start = newline + 1;
    }
    this.rest = start === 0 ? buffer : buffer.slice(start);
  }

  /** The body ended: a last event without its blank line still counts. */
  end(): void {
    const rest = this.rest.endsWith('\r') ? this.rest.slice(0, -1) : this.rest;
    this.rest = '';
    this.line(rest, 0, rest.length);
    this.line('', 0, 0);
  }

  private line(buffer: string, start: number, end: number): void {
    if (start === end) {
      if (this.data !== undefined) this.onData(this.data);
      this.data = undefined;
    } else if (buffer.startsWith('data:', start)) {
      const from = buffer.charCodeAt(start + 5) === 32 ? start + 6 : start + 5;
      const value = buffer.slice(from, end);
      this.data = this.data === undefined ? value : `${this.data}\n${value}`;
    }
  }
}

/** Events parsed ahead of the reader beyond this pause the body until it catches up. */
const HIGH_WATER = 64;

/**
 * The data fields of an SSE response body, read with 'data' events: one promise per wait, where an
 * async generator over the stream's own iterator costs several per event (bench/compat.ts). The
 * iterator's `return` stops listening and leaves the body to its owner (a kept-alive connection).
 * A body that closes before it ends rejects the pending read.
 */
export function sseData(body: Readable): AsyncIterableIterator<string> {
  const ready: string[] = [];
  let head = 0;
  let ended = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    const waiting = wake;
    wake = undefined;
    waiting?.();
  };
  const parser = new SseParser((data) => ready.push(data));
  const onData = (text: string) => {
    parser.push(text);
    if (ready.length - head > HIGH_WATER) body.pause();
    notify();
  };
  const onEnd = () => {
    parser.end();
    ended = true;
    notify();
  };
  const onError = (error: Error) => {
    failure ??= error;
    notify();
  };
  const onClose = () => {
    if (!ended) onError(new Error('the event stream closed before it ended'));
  };
  body.setEncoding('utf8');
  body.on('data', onData).once('end', onEnd).once('error', onError).once('close', onClose);
  const stop = () => {
    body.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
  };

  const next = (): Promise<IteratorResult<string>> => {
    if (head < ready.length) {
      const value = ready[head] as string;
      head += 1;
      if (head === ready.length) {
        ready.length = 0;
        head = 0;
        if (body.isPaused() && !ended) body.resume();
      }
      return Promise.resolve({ value, done: false });
    }
    if (failure) {
      stop();
      return Promise.reject(failure);
    }
    if (ended) {
      stop();
      return Promise.resolve({ value: undefined, done: true });
    }
    return new Promise<void>((resolve) => (wake = resolve)).then(next);
  };
  return {
    next,
    return: () => {
      stop();
      return Promise.resolve({ value: undefined, done: true });
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
