import { afterAll, afterEach, beforeAll } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake answers to one request. */
export type Scripted =
  /** `reportsUsage: false`: a server that ignores `stream_options.include_usage` (no usage chunk). */
  /** `hold`: the stream stops after `at` characters until `release` resolves (a test decides when the rest comes). */
  /** `firstTokenMs`: the wait before the first piece of text (a model's time to first token), `delayMs` before each later one. */
  | { kind: 'reply'; text: string; chunkSize?: number; delayMs?: number; firstTokenMs?: number; reportsUsage?: boolean; hold?: Hold }
  | { kind: 'status'; status: 400 | 401 | 429 | 500 | 503; retryAfter?: number; message?: string }
  | { kind: 'hang' }
  /** Misbehaviours: `text` streamed, then the connection is destroyed (no finish chunk, no `[DONE]`). */
  | { kind: 'cut'; text: string; chunkSize?: number }
  /** `text` streamed (the headers alone when empty), then nothing more on a connection kept open. */
  | { kind: 'stall'; text: string; chunkSize?: number }
  /** A 200 event stream whose body is `body` as it stands (malformed SSE, broken JSON). */
  | { kind: 'raw'; body: string };

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: { model?: string; stream?: boolean; stream_options?: { include_usage?: boolean }; messages?: Array<{ role: string; content: string }> } & Record<
    string,
    unknown
  >;
}

export interface FakeOpenAi {
  /** The base URL to use as OPENAI_BASE_URL (ends in /v1). */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Answers for the next requests, in order; then `fallback`. */
  script(...answers: Scripted[]): void;
  /** Forgets the recorded requests, the scripted answers not used yet and `answerFor`. */
  reset(): void;
  fallback: Scripted;
  /** Consulted first for each chat request: a scripted answer chosen by what was asked (undefined: the queue decides). */
  answerFor: ((request: RecordedRequest) => Scripted | undefined) | undefined;
  /** The vector `POST /v1/embeddings` answers for one input; by default words hashed into 64 dimensions. */
  embed: (text: string) => number[];
  /** Requests whose client closed the connection before the answer was complete. */
  readonly aborted: number;
  /** Resolves once `aborted` reaches `count`. */
  waitForAborted(count: number): Promise<void>;
  close(): Promise<void>;
}

const ERROR_TYPES: Record<number, { type: string; code: string | null }> = {
  400: { type: 'invalid_request_error', code: null },
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  429: { type: 'requests', code: 'rate_limit_exceeded' },
  500: { type: 'server_error', code: null },
  503: { type: 'server_error', code: null },
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function chunk(id: string, model: string, created: number, delta: Record<string, unknown>, finish: string | null) {
  return {
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    system_fingerprint: 'fp_fake',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  };
}

export interface Hold {
  at: number;
  release: Promise<void>;
}

/** A gate a held answer waits at (`hold: { at, release: gate.release }`): the test opens it when the rest may come. */
export function gate(): { release: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const release = new Promise<void>((resolve) => (open = resolve));
  return { release, open };
}

/** How a stream ends: as the API ends it, with the connection destroyed, or not at all (the connection stays open). */
type Ending = 'done' | 'cut' | 'stall';

/**
 * Streams like the real API: a role chunk, content chunks, a finish chunk, with `stream_options.include_usage`
 * a usage chunk (empty choices), then `data: [DONE]`. Stops writing once the client has gone.
 */
async function stream(
  response: ServerResponse,
  model: string,
  text: string,
  chunkSize: number,
  delayMs: number,
  usage: boolean,
  ending: Ending = 'done',
  hold?: Hold,
  firstTokenMs?: number,
): Promise<void> {
  const id = `chatcmpl-${Math.random().toString(36).slice(2)}`;
  const created = Math.floor(Date.now() / 1000);
  response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const send = (data: unknown) => response.write(`data: ${JSON.stringify(data)}\n\n`);
  send(chunk(id, model, created, { role: 'assistant', content: '', refusal: null }, null));
  for (let index = 0; index < text.length; index += chunkSize) {
    const wait = index === 0 && firstTokenMs !== undefined ? firstTokenMs : delayMs;
    if (wait > 0) await sleep(wait);
    if (hold && index >= hold.at && index - chunkSize < hold.at) await hold.release;
    if (response.destroyed) return;
    send(chunk(id, model, created, { content: text.slice(index, index + chunkSize) }, null));
  }
  // The socket's end: what was written still arrives, then the connection closes mid-body.
  if (ending === 'cut') response.socket?.end();
  if (ending !== 'done') return;
  send(chunk(id, model, created, {}, 'stop'));
  if (usage)
    send({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      system_fingerprint: 'fp_fake',
      choices: [],
      usage: { prompt_tokens: 10, completion_tokens: Math.ceil(text.length / chunkSize), total_tokens: 10 + Math.ceil(text.length / chunkSize) },
    });
  response.end('data: [DONE]\n\n');
}

/** Each word adds 1 to one of 64 dimensions: texts that share words point the same way. */
function hashedWords(text: string): number[] {
  const vector = new Array<number>(64).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let hash = 0;
    for (const char of word) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) % 64;
    vector[hash] = (vector[hash] ?? 0) + 1;
  }
  return vector;
}

/** `POST /v1/embeddings` as the API answers it: one embedding object per input, in order. */
function embeddings(response: ServerResponse, body: RecordedRequest['body'], embed: (text: string) => number[]): void {
  const inputs = typeof body.input === 'string' ? [body.input] : Array.isArray(body.input) ? body.input.map(String) : [];
  const tokens = inputs.reduce((sum, text) => sum + text.split(/\s+/).length, 0);
  response.writeHead(200, { 'content-type': 'application/json' }).end(
    JSON.stringify({
      object: 'list',
      data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: embed(text) })),
      model: body.model ?? 'unknown',
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    }),
  );
}

function completion(response: ServerResponse, model: string, text: string): void {
  const body = {
    id: `chatcmpl-${Math.random().toString(36).slice(2)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: text.length, total_tokens: 10 + text.length },
    system_fingerprint: 'fp_fake',
  };
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/**
 * A local OpenAI-compatible server (real HTTP on port 0): `POST /v1/embeddings`, `POST /v1/chat/completions`, streaming SSE
 * exactly as the API does, non-streaming JSON, and the API's error bodies for 4xx/5xx (with
 * Retry-After on 429). `apiKey` set: other bearer tokens get 401.
 */
export async function startFakeOpenAi(options: { apiKey?: string; fallback?: Scripted; port?: number } = {}): Promise<FakeOpenAi> {
  const queue: Scripted[] = [];
  const requests: RecordedRequest[] = [];
  const open = new Set<ServerResponse>();
  let aborted = 0;
  const abortWaiters: Array<{ count: number; resolve: () => void }> = [];
  const noteAbort = () => {
    aborted += 1;
    for (const waiter of abortWaiters.filter((entry) => aborted >= entry.count)) {
      abortWaiters.splice(abortWaiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  const fake: Omit<FakeOpenAi, 'baseUrl' | 'close' | 'aborted' | 'waitForAborted'> = {
    requests,
    script: (...answers) => void queue.push(...answers),
    reset: () => {
      queue.length = 0;
      requests.length = 0;
      fake.answerFor = undefined;
    },
    fallback: options.fallback ?? { kind: 'reply', text: 'Hello from the fake model.' },
    answerFor: undefined,
    embed: hashedWords,
  };
  const server: Server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      void (async () => {
        let body: RecordedRequest['body'] = {};
        try {
          body = JSON.parse(Buffer.concat(parts).toString('utf8')) as RecordedRequest['body'];
        } catch {
          response.writeHead(400, { 'content-type': 'application/json' }).end(
            JSON.stringify({
              error: { message: 'We could not parse the JSON body of your request.', type: 'invalid_request_error', param: null, code: null },
            }),
          );
          return;
        }
        requests.push({ path: request.url ?? '', headers: request.headers, body });
        if (request.method !== 'POST' || (request.url !== '/v1/chat/completions' && request.url !== '/v1/embeddings')) {
          response.writeHead(404, { 'content-type': 'application/json' }).end(
            JSON.stringify({
              error: { message: `Unknown request URL: ${request.method} ${request.url}`, type: 'invalid_request_error', param: null, code: 'unknown_url' },
            }),
          );
          return;
        }
        if (options.apiKey !== undefined && request.headers.authorization !== `Bearer ${options.apiKey}`) {
          response
            .writeHead(401, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: { message: 'Incorrect API key provided.', ...ERROR_TYPES[401], param: null } }));
          return;
        }
        if (request.url === '/v1/embeddings') {
          embeddings(response, body, fake.embed);
          return;
        }
        response.on('close', () => {
          if (!response.writableEnded) noteAbort();
        });
        const answer = fake.answerFor?.(requests.at(-1) as RecordedRequest) ?? queue.shift() ?? fake.fallback;
        const model = body.model ?? 'unknown';
        if (answer.kind === 'hang') {
          open.add(response);
          return;
        }
        if (answer.kind === 'status') {
          const headers: Record<string, string> = { 'content-type': 'application/json' };
          if (answer.retryAfter !== undefined) headers['retry-after'] = String(answer.retryAfter);
          const message =
            answer.message ?? (answer.status === 429 ? 'Rate limit reached for requests' : 'The server had an error while processing your request.');
          response.writeHead(answer.status, headers).end(JSON.stringify({ error: { message, ...ERROR_TYPES[answer.status], param: null } }));
          return;
        }
        if (answer.kind === 'raw') {
          response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' }).end(answer.body);
          return;
        }
        if (answer.kind === 'cut' || answer.kind === 'stall') {
          if (answer.kind === 'stall') open.add(response);
          await stream(response, model, answer.text, answer.chunkSize ?? 4, 0, false, answer.kind);
          return;
        }
        const usage = body.stream_options?.include_usage === true && answer.reportsUsage !== false;
        if (body.stream)
          await stream(response, model, answer.text, answer.chunkSize ?? 4, answer.delayMs ?? 0, usage, 'done', answer.hold, answer.firstTokenMs);
        else completion(response, model, answer.text);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ...fake,
    get fallback() {
      return fake.fallback;
    },
    set fallback(value: Scripted) {
      fake.fallback = value;
    },
    get answerFor() {
      return fake.answerFor;
    },
    set answerFor(value: FakeOpenAi['answerFor']) {
      fake.answerFor = value;
    },
    get embed() {
      return fake.embed;
    },
    set embed(value: (text: string) => number[]) {
      fake.embed = value;
    },
    get aborted() {
      return aborted;
    },
    waitForAborted: (count) => (aborted >= count ? Promise.resolve() : new Promise<void>((resolve) => abortWaiters.push({ count, resolve }))),
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: async () => {
      for (const response of open) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The last message of the last prompt the model server received: what the model was asked to answer. */
export const lastPrompt = (model: FakeOpenAi) => model.requests.at(-1)?.body.messages?.at(-1)?.content;

/**
 * The fake model of a describe block: started before its tests, reset after each, closed after all. The
 * value stands for the running server (reads and assignments such as `answerFor` reach it), so tests use
 * it as they would the server itself.
 */
export function useFakeOpenAi(options: Parameters<typeof startFakeOpenAi>[0] = { apiKey: 'sk-test' }): FakeOpenAi {
  let running: FakeOpenAi | undefined;
  const current = () => {
    if (!running) throw new Error('the fake model starts in beforeAll: use it inside a test');
    return running;
  };
  beforeAll(async () => {
    running = await startFakeOpenAi(options);
  });
  afterEach(() => running?.reset());
  afterAll(async () => running?.close());
  return new Proxy({} as FakeOpenAi, {
    get: (_, key) => Reflect.get(current(), key),
    set: (_, key, value) => Reflect.set(current(), key, value),
  });
}
