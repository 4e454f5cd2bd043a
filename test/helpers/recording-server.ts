import { createServer, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as a fake platform API received it, its body read whole. */
export interface ReceivedRequest {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What the fake answers: a JSON body, with the platform's headers. */
export interface FakeAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface RecordingServer<R> {
  baseUrl: string;
  /** Every request, as `record` made it, in the order answered. */
  requests: R[];
  /** The first request (already made, or the next) that matches. */
  waitFor(match: (request: R) => boolean): Promise<R>;
  close(): Promise<void>;
}

/** The whole body of a request, as text. */
export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The scaffolding of a local fake of a remote JSON API (Reddit, X): a real HTTP server on an ephemeral
 * port that reads each body, answers with `answer`, keeps a record of the request (`record`, with the
 * status it got) for the test to inspect, and wakes whoever waits for it.
 */
export async function startRecordingServer<R>(options: {
  answer(request: ReceivedRequest): FakeAnswer;
  record(request: ReceivedRequest, status: number): R;
}): Promise<RecordingServer<R>> {
  const requests: R[] = [];
  const waiters: Array<{ match: (request: R) => boolean; resolve: (request: R) => void }> = [];
  const server = createServer((incoming, response) => {
    void readBody(incoming).then((body) => {
      const request: ReceivedRequest = {
        method: incoming.method ?? 'GET',
        url: new URL(incoming.url ?? '/', 'http://localhost'),
        headers: incoming.headers,
        body,
      };
      const { status, body: answer, headers } = options.answer(request);
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(answer));
      const entry = options.record(request, status);
      requests.push(entry);
      for (const waiter of [...waiters]) {
        if (!waiter.match(entry)) continue;
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(entry);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    waitFor(match) {
      const found = requests.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
