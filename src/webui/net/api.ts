/**
 * HTTP calls to the Anima API. A remote browser (not trusted by address) is asked for the API key once;
 * the key is kept in localStorage and sent as `X-API-Key` on every call.
 */
const KEY_STORAGE = 'anima.api_key';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

let askForKey: (() => Promise<string>) | undefined;
/** Calls that fail together share one question. */
let asking: Promise<string> | undefined;

/** The UI that asks for the key (a dialog), installed by main. */
export function setKeyPrompt(prompt: () => Promise<string>): void {
  askForKey = prompt;
}

export function storedKey(): string | null {
  return localStorage.getItem(KEY_STORAGE);
}

/** The stored key as a header, for requests that must not prompt (they run beside one that may). */
export function keyHeaders(): Record<string, string> {
  const key = storedKey();
  return key ? { 'X-API-Key': key } : {};
}

function headersFor(init: RequestInit): Headers {
  const headers = new Headers(init.headers);
  const key = storedKey();
  if (key) headers.set('X-API-Key', key);
  if (typeof init.body === 'string' && !headers.has('content-type')) headers.set('content-type', 'application/json');
  return headers;
}

async function failure(response: Response): Promise<ApiError> {
  try {
    const body = (await response.json()) as { error?: { code?: string; message?: string; details?: unknown } };
    return new ApiError(response.status, body.error?.code ?? 'error', body.error?.message ?? response.statusText, body.error?.details);
  } catch {
    return new ApiError(response.status, 'error', `${response.status} ${response.statusText}`);
  }
}

/** fetch with the stored key; on 401 asks for the key (once per wrong key) and retries. */
export async function apiFetch(path: string, init: RequestInit = {}): Promise<Response> {
  let response = await fetch(path, { ...init, headers: headersFor(init) });
  if (response.status === 401 && askForKey) {
    asking ??= askForKey().finally(() => (asking = undefined));
    localStorage.setItem(KEY_STORAGE, await asking);
    response = await fetch(path, { ...init, headers: headersFor(init) });
  }
  if (!response.ok) throw await failure(response);
  return response;
}

export async function apiJson<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await apiFetch(path, init);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

export function postJson<T>(path: string, body: unknown, method = 'POST'): Promise<T> {
  return apiJson<T>(path, { method, body: JSON.stringify(body ?? {}) });
}
