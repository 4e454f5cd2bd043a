import { keyHeaders, storeKey } from './api-key.ts';
import { session, sessionHeaders } from './session.ts';

/**
 * HTTP calls to the Anima API. A remote browser (not trusted by address) is asked for the API key once;
 * the key is kept in localStorage and sent as `X-API-Key` on every call.
 */

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

/** The stored key and the session token, as every call of the page sends them. */
export async function authHeaders(): Promise<Record<string, string>> {
  return { ...keyHeaders(), ...(await sessionHeaders()) };
}

async function send(path: string, init: RequestInit): Promise<Response> {
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(await authHeaders())) headers.set(name, value);
  if (typeof init.body === 'string' && !headers.has('content-type')) headers.set('content-type', 'application/json');
  return fetch(path, { ...init, headers });
}

/** The contract's JSON error of a failed response, as an ApiError. */
export async function failure(response: Response): Promise<ApiError> {
  try {
    const body = (await response.json()) as { error?: { code?: string; message?: string; details?: unknown } };
    return new ApiError(response.status, body.error?.code ?? 'error', body.error?.message ?? response.statusText, body.error?.details);
  } catch {
    return new ApiError(response.status, 'error', `${response.status} ${response.statusText}`);
  }
}

/**
 * fetch with the page's session token (and the stored key). A 401 first renews the token (the server
 * restarted), then asks for the key (once per wrong key) and retries.
 */
export async function apiFetch(path: string, init: RequestInit = {}): Promise<Response> {
  let response = await send(path, init);
  if (response.status === 401) {
    await session(true).catch(() => undefined);
    response = await send(path, init);
  }
  if (response.status === 401 && askForKey) {
    asking ??= askForKey().finally(() => (asking = undefined));
    storeKey(await asking);
    response = await send(path, init);
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
