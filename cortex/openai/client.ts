import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import type { ChatTurn, ClockPort, JsonResponseFormat, TokenUsage } from '../../src/components/contract.ts';
import { postJson, readText, release, targetOf } from './http-post.ts';
import { sseData } from './sse.ts';

export interface OpenAiSettings {
  baseUrl: string;
  apiKey: string;
  model: string;
  /** For the response headers, and then between two chunks. */
  timeoutMs: number;
  maxRetries: number;
  /** First backoff step; doubled at each retry unless the server sends Retry-After. */
  backoffMs?: number;
}

const ChunkSchema = z.object({
  choices: z.array(z.object({ delta: z.object({ content: z.string().nullish() }).partial().optional() })).default([]),
  usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number() }).nullish(),
});
const ErrorBodySchema = z.object({ error: z.object({ message: z.string() }).passthrough() });
type Chunk = z.infer<typeof ChunkSchema>;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isCount = (value: unknown) => typeof value === 'number';

/**
 * A chunk of the usual shape, recognised by hand: running the schemas on every chunk of every stream
 * cost more than the rest of the parse. Only what ChunkSchema accepts as it is passes; anything else
 * (an error event, a malformed chunk) goes through the schemas.
 */
function plainChunk(json: unknown): Chunk | undefined {
  if (!isObject(json) || 'error' in json || !Array.isArray(json.choices)) return undefined;
  for (const choice of json.choices as unknown[]) {
    if (!isObject(choice)) return undefined;
    const { delta } = choice;
    if (delta === undefined) continue;
    if (!isObject(delta) || (delta.content !== undefined && delta.content !== null && typeof delta.content !== 'string')) return undefined;
  }
  const { usage } = json;
  if (usage !== undefined && usage !== null && !(isObject(usage) && isCount(usage.prompt_tokens) && isCount(usage.completion_tokens))) return undefined;
  return json as Chunk;
}

function checkedChunk(json: unknown): Chunk {
  const streamedError = ErrorBodySchema.safeParse(json);
  if (streamedError.success) throw new OpenAiError(streamedError.data.error.message);
  return ChunkSchema.parse(json);
}

const RETRY_AFTER_CAP_MS = 30_000;

export class OpenAiError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

const retryable = (status: number) => status === 429 || status >= 500;

function retryDelay(response: IncomingMessage | undefined, attempt: number, backoffMs: number): number {
  const header = response?.headers['retry-after'];
  const seconds = header === undefined ? Number.NaN : Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, RETRY_AFTER_CAP_MS);
  return backoffMs * 2 ** attempt * (0.75 + Math.random() * 0.5);
}

/** Waits `ms` on the host's clock (no timer for no wait: Retry-After 0 retries at once); rejects when `signal` aborts. */
function sleep(clock: ClockPort, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    if (ms <= 0) return resolve();
    const timer = clock.setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clock.clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

async function errorMessage(response: IncomingMessage): Promise<string> {
  const text = await readText(response).catch(() => '');
  try {
    const parsed = ErrorBodySchema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data.error.message;
  } catch {
    // Not JSON: the status line says enough.
  }
  return `HTTP ${response.statusCode}${text ? `: ${text.slice(0, 200)}` : ''}`;
}

/**
 * A deadline that aborts `controller` unless pushed back by `touch`: one timer on the host's clock that,
 * when it falls due, waits out what the touches since added (no new timer per chunk).
 */
function idleTimer(clock: ClockPort, controller: AbortController, ms: number) {
  let started = false;
  let touched = clock.now();
  let timer: unknown;
  const fallDue = () => {
    const left = touched + ms - clock.now();
    if (left > 0) timer = clock.setTimeout(fallDue, left);
    else controller.abort(new OpenAiError(started ? `the stream stalled for ${ms / 1000} s` : `no answer within ${ms / 1000} s`));
  };
  timer = clock.setTimeout(fallDue, ms);
  return {
    touch() {
      started = true;
      touched = clock.now();
    },
    clear: () => clock.clearTimeout(timer),
  };
}

/**
 * One streamed chat completion (`POST <base>/chat/completions`, `stream: true`): yields the content
 * deltas. A 429, a 5xx or a network failure before any content is retried with backoff; once content
 * has arrived, a failure ends the answer with an error rather than repeating words.
 */
export async function* streamChat(
  clock: ClockPort,
  settings: OpenAiSettings,
  messages: ChatTurn[],
  signal: AbortSignal,
  onUsage?: (usage: TokenUsage) => void,
  responseFormat?: JsonResponseFormat,
): AsyncGenerator<string> {
  const target = targetOf(`${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream' };
  if (settings.apiKey.trim() !== '') headers.authorization = `Bearer ${settings.apiKey.trim()}`;
  // include_usage: the last chunk carries the token counts (OpenAI, Ollama, llama.cpp, vLLM, LM Studio).
  // Structured outputs: OpenAI, Ollama, llama.cpp, vLLM and LM Studio hold the answer to the schema.
  const format = responseFormat && { type: 'json_schema', json_schema: { name: responseFormat.name, schema: responseFormat.schema, strict: true } };
  const body = JSON.stringify({
    model: settings.model,
    messages,
    stream: true,
    stream_options: { include_usage: true },
    ...(format ? { response_format: format } : {}),
  });
  for (let attempt = 0; ; attempt += 1) {
    const controller = new AbortController();
    const abort = () => controller.abort(signal.reason);
    // The deadline may fall due in the same turn as the backoff's end: no attempt starts after it.
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
    const timer = idleTimer(clock, controller, settings.timeoutMs);
    let response: IncomingMessage | undefined;
    let failure: unknown;
    try {
      response = await postJson(target, headers, body, controller.signal);
      const status = response.statusCode ?? 0;
      if (status >= 200 && status < 300) {
        timer.touch();
        // Not destroyed at [DONE]: release() below keeps the connection when the body is complete.
        for await (const data of sseData(response)) {
          timer.touch();
          if (data === '[DONE]') return;
          const json = JSON.parse(data) as unknown;
          const chunk = plainChunk(json) ?? checkedChunk(json);
          if (chunk.usage) onUsage?.({ promptTokens: chunk.usage.prompt_tokens, completionTokens: chunk.usage.completion_tokens });
          const content = chunk.choices[0]?.delta?.content;
          if (content) {
            attempt = settings.maxRetries;
            yield content;
          }
        }
        return;
      }
      failure = new OpenAiError(await errorMessage(response), status);
      if (!retryable(status)) throw failure;
    } catch (thrown) {
      if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new OpenAiError('aborted');
      // node:http fails an aborted request with its own AbortError; the idle timer's reason says why.
      const error: unknown = controller.signal.aborted ? controller.signal.reason : thrown;
      // Timeouts, stream errors and 4xx answers are final; network failures and 429/5xx are retried.
      if (error instanceof OpenAiError && (error.status === undefined || !retryable(error.status))) throw error;
      failure = error;
    } finally {
      timer.clear();
      signal.removeEventListener('abort', abort);
      if (response) release(response);
    }
    if (attempt >= settings.maxRetries) throw failure instanceof Error ? failure : new OpenAiError(String(failure));
    await sleep(clock, retryDelay(response, attempt, settings.backoffMs ?? 500), signal);
  }
}
