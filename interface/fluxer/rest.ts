import { type ClockPort, type ComponentContext, waitOn, withTimeout } from '../../src/components/contract.ts';

/** Attempts of one call while the server answers 429: the first and two retries. */
const ATTEMPTS = 3;
/** A longer `retry_after` fails the call instead: a reply minutes late is worse than the logged failure. */
const MAX_WAIT_S = 60;
const TIMEOUT_MS = 30_000;

/** An error answer of the API: its HTTP status, and the JSON `code` and `message` when it sent them. */
export class FluxerApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number | string | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** A file to upload with a message (`files[0]`, as Discord v10 multipart messages name them). */
export interface UploadFile {
  name: string;
  data: Buffer;
  contentType?: string;
}

export interface MessageBody {
  content?: string;
  /** Answers this message (shown as a reply in a guild). */
  message_reference?: { message_id: string };
}

export interface RestOptions {
  /** Read at each call, so a changed server or token takes effect at once. */
  settings(): { restBase: string; authorization: string };
  logger: ComponentContext['logger'];
  clock: ClockPort;
}

async function errorOf(response: Response): Promise<FluxerApiError> {
  const body = (await response.json().catch(() => ({}))) as { code?: number | string; message?: string };
  return new FluxerApiError(response.status, body.code, `${response.status} ${body.message ?? response.statusText}`);
}

/** How long a 429 asks to wait, in seconds: `retry_after` of the body, else the Retry-After header. */
async function retryAfterOf(response: Response): Promise<number | undefined> {
  const body = (await response.json().catch(() => ({}))) as { retry_after?: number };
  const seconds = body.retry_after ?? Number(response.headers.get('retry-after') ?? Number.NaN);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

/**
 * The REST half of the API (Discord v10's shapes, as Fluxer mirrors them): `Authorization: Bot <token>`,
 * JSON bodies, multipart for files, and a 429 sent again after its `retry_after`.
 */
export class FluxerRest {
  constructor(private readonly options: RestOptions) {}

  /** The gateway address the server names (`GET /gateway/bot`). */
  async gatewayUrl(): Promise<string> {
    const { url } = await this.call<{ url: string }>('GET', '/gateway/bot');
    return url;
  }

  createMessage(channelId: string, body: MessageBody, files: UploadFile[] = []): Promise<{ id: string }> {
    if (files.length === 0) return this.call('POST', `/channels/${channelId}/messages`, body);
    const form = () => {
      const data = new FormData();
      data.set('payload_json', JSON.stringify({ ...body, attachments: files.map((file, id) => ({ id, filename: file.name })) }));
      for (const [index, file] of files.entries()) {
        data.set(`files[${index}]`, new Blob([file.data], { type: file.contentType ?? 'application/octet-stream' }), file.name);
      }
      return data;
    };
    return this.call('POST', `/channels/${channelId}/messages`, form);
  }

  /** Shows "typing..." in a channel for about ten seconds, or until the bot's next message. */
  async typing(channelId: string): Promise<void> {
    await this.call('POST', `/channels/${channelId}/typing`);
  }

  /** One call; `body` is JSON, or a function that builds a fresh form for each attempt (a sent form is spent). */
  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const { clock } = this.options;
    for (let attempt = 1; ; attempt += 1) {
      const answer = await withTimeout(clock, TIMEOUT_MS, (signal) => this.attempt<T>(method, path, body, signal));
      if ('value' in answer) return answer.value;
      const wait = answer.retryAfterS;
      if (wait === undefined || wait > MAX_WAIT_S || attempt >= ATTEMPTS) throw new FluxerApiError(429, undefined, `429 rate limited on ${path}`);
      this.options.logger.warn({ path, retry_after_s: wait }, 'Fluxer rate limit: waiting before retrying');
      await waitOn(clock, wait * 1000);
    }
  }

  /** One request, its answer read within the same deadline: the value, or how long a 429 asks to wait. */
  private async attempt<T>(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    signal: AbortSignal,
  ): Promise<{ value: T } | { retryAfterS: number | undefined }> {
    const { restBase, authorization } = this.options.settings();
    const form = typeof body === 'function' ? (body as () => FormData)() : undefined;
    const response = await fetch(`${restBase}${path}`, {
      method,
      headers: { authorization, ...(body !== undefined && !form ? { 'content-type': 'application/json' } : {}) },
      ...(form ? { body: form } : body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal,
    });
    if (response.status === 429) return { retryAfterS: await retryAfterOf(response) };
    if (!response.ok) throw await errorOf(response);
    if (response.status === 204) return { value: undefined as T };
    return { value: (await response.json()) as T };
  }
}
