import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/**
 * Kept-alive connections to the model server, shared by every answer, so an answer costs no handshake.
 * node:http rather than fetch: fetch carries each chunk of a streamed answer through web streams, which
 * cost more per chunk than parsing it (measured with bench/compat.ts, 20 streams at once).
 */
const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

export interface Target {
  secure: boolean;
  options: RequestOptions;
}

/** Parsed once per URL: an answer's request starts from these options rather than from a URL to parse. */
const targets = new Map<string, Target>();

/** Throws on a malformed URL. */
export function targetOf(url: string): Target {
  let target = targets.get(url);
  if (target === undefined) {
    const parsed = new URL(url);
    const secure = parsed.protocol === 'https:';
    const auth = parsed.username ? `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}` : undefined;
    target = {
      secure,
      options: {
        protocol: parsed.protocol,
        hostname: parsed.hostname.replace(/^\[|\]$/g, ''),
        port: parsed.port || undefined,
        path: `${parsed.pathname}${parsed.search}`,
        auth,
        agent: secure ? agents.https : agents.http,
      },
    };
    targets.set(url, target);
  }
  return target;
}

/**
 * `POST url` with a JSON body; resolves with the response once its headers are in. Aborting `signal`
 * destroys both. `signal` is expected to live no longer than the answer: its listener is not removed.
 */
export function postJson(target: Target, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const { secure, options } = target;
    const requestOptions: RequestOptions = { ...options, method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } };
    const request = secure ? httpsRequest(requestOptions, resolve) : httpRequest(requestOptions, resolve);
    request.once('error', reject);
    // A listener of our own rather than the `signal` option, which also watches the request's end (a
    // measurable part of starting an answer): destroying the request ends its response too.
    signal.addEventListener('abort', () => request.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted')), { once: true });
    // The request is one write; Nagle would hold it while an earlier answer's last bytes await their ACK.
    request.setNoDelay(true);
    request.end(body);
  });
}

/**
 * Done with `response`: one whose body has all arrived (an answer left at `[DONE]`) is drained, which
 * hands its connection back to the pool; one still arriving (an error, an abort) is destroyed with it.
 */
export function release(response: IncomingMessage): void {
  if (response.complete) response.resume();
  else response.destroy();
}

export async function readText(response: IncomingMessage): Promise<string> {
  response.setEncoding('utf8');
  let text = '';
  for await (const part of response) text += part as string;
  return text;
}
