import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply } from 'fastify';

export interface ResponseStream {
  /** Whether the status and headers were sent (at `open`, or with the first write). */
  readonly started: boolean;
  /** Sends the status and headers now, so the client knows its request was accepted. */
  open(): void;
  write(text: string): void;
  end(text?: string): void;
}

/**
 * A streamed 200 answer written straight to the socket, with the headers Fastify's hooks set so far
 * (CORS). Until it is opened, an error is still an ordinary error response.
 */
export function responseStream(reply: FastifyReply, contentType: string): ResponseStream {
  let started = false;
  /** The headers are on their way: flushed, or sent with the first write. */
  let sent = false;
  const open = () => {
    if (started) return;
    started = true;
    reply.hijack();
    reply.raw.writeHead(200, { ...(reply.getHeaders() as OutgoingHttpHeaders), 'content-type': contentType, 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
    // After this turn's I/O callbacks rather than now: of requests arriving together, each reaches the
    // model server before any of them pays for a header write (bench/compat.ts, 20 at once).
    setImmediate(() => {
      if (!sent) reply.raw.flushHeaders();
      sent = true;
    });
  };
  return {
    open,
    get started() {
      return started;
    },
    write(text) {
      open();
      sent = true;
      reply.raw.write(text);
    },
    end(text) {
      open();
      sent = true;
      reply.raw.end(text);
    },
  };
}

/** Aborted when the client closes the connection before the answer is complete. */
export function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('the client closed the connection'));
  });
  return controller.signal;
}
