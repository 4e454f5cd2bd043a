import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { Clock, TimerHandle } from '../body/clock.ts';

/** Without a chunk by then, the headers go out alone, so a client waiting on a slow model knows it was accepted. */
export const HEADERS_ALONE_AFTER_MS = 50;

export interface ResponseStream {
  /** Whether the status and headers are committed (at `open`, or with the first write). */
  readonly started: boolean;
  /** Commits the status and headers; they travel with the first chunk, or alone after HEADERS_ALONE_AFTER_MS. */
  open(): void;
  write(text: string): void;
  end(text?: string): void;
}

/**
 * A streamed 200 answer written straight to the socket, with the headers Fastify's hooks set so far
 * (CORS). Until it is opened, an error is still an ordinary error response.
 */
export function responseStream(reply: FastifyReply, contentType: string, clock: Clock): ResponseStream {
  let started = false;
  /** Flushes the headers alone; cleared by the first write. */
  let alone: TimerHandle | undefined;
  const open = () => {
    if (started) return;
    started = true;
    reply.hijack();
    reply.raw.writeHead(200, {
      ...(reply.getHeaders() as OutgoingHttpHeaders),
      'content-type': contentType,
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
    });
    // One write and one wake-up of the client instead of two when the model answers quickly (as Ollama
    // sends them); a slow model (loading, a queue) still lets the client see the request accepted.
    alone = clock.setTimeout(() => {
      if (!reply.raw.destroyed) reply.raw.flushHeaders();
    }, HEADERS_ALONE_AFTER_MS);
  };
  const commit = () => {
    open();
    if (alone !== undefined) clock.clearTimeout(alone);
    alone = undefined;
  };
  return {
    open,
    get started() {
      return started;
    },
    write(text) {
      commit();
      reply.raw.write(text);
    },
    end(text) {
      commit();
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
