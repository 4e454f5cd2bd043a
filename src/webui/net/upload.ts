/**
 * Multipart uploads that report their progress. fetch has no upload progress events; XMLHttpRequest
 * does, so uploads go through it with the same credentials every other call of the page carries.
 */
import { ApiError, authHeaders, failure } from './api.ts';
import { session } from './session.ts';

/** Bytes sent so far; `total` is 0 while the browser cannot tell the size of the body. */
export interface UploadProgress {
  loaded: number;
  total: number;
}

interface Answer {
  status: number;
  statusText: string;
  body: string;
}

async function post(path: string, form: FormData, onProgress: (progress: UploadProgress) => void): Promise<Answer> {
  const headers = await authHeaders();
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', path);
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    // Upload listeners must be in place before send(), or the browser skips the progress events.
    request.upload.addEventListener('progress', (event) => onProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : 0 }));
    request.addEventListener('load', () => resolve({ status: request.status, statusText: request.statusText, body: request.responseText }));
    request.addEventListener('error', () => reject(new ApiError(0, 'network_error', 'The upload was cut off: the server could not be reached')));
    request.send(form);
  });
}

/**
 * POSTs `form` and resolves with the JSON answer, calling `onProgress` as the body goes out. A 401
 * renews the session token once (the server restarted) and sends again, as the other calls do; any
 * other refusal rejects with the API's own error.
 */
export async function uploadWithProgress<T>(path: string, form: FormData, onProgress: (progress: UploadProgress) => void): Promise<T> {
  let answer = await post(path, form, onProgress);
  if (answer.status === 401) {
    await session(true).catch(() => undefined);
    answer = await post(path, form, onProgress);
  }
  if (answer.status < 200 || answer.status >= 300) {
    throw await failure(new Response(answer.body === '' ? null : answer.body, { status: answer.status, statusText: answer.statusText }));
  }
  return (answer.body === '' ? undefined : JSON.parse(answer.body)) as T;
}
