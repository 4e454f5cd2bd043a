import type { Services } from '../services.ts';
import { BODY_STATE_PATH, type BodyStateAnswer, bodyStateAnswer } from './body-state-answer.ts';
import type { RequestShortcut } from './create-fastify.ts';
import { isRateLimitExempt } from './rate-limit.ts';
import { apiSecurityHeaders } from './security-headers.ts';

/**
 * GET /api/body/state for the client that polls it thousands of times a second, a companion on this
 * machine, answered before Fastify routes the request: the route's own answer (`bodyStateAnswer`) with
 * the headers Fastify would send (the API's security headers, then the route's, then the length). It
 * takes only what the route would answer without any hook acting on it: the exact path without a query,
 * a client the rate limit never counts, and one the trust rules accept as they stand (the route's rules:
 * an /api route, never public). Everything else (HEAD, a refusal, a counted client, a query string) goes
 * through Fastify, which answers it as before.
 */
export function bodyStateShortcut(services: Services, https: boolean): RequestShortcut {
  const { body, config, trust, listeners } = services;
  // Headers as one flat list of names and values: Node validates an object's headers one call at a
  // time, which costs this route more than all its own work.
  const security = Object.entries(apiSecurityHeaders(https)).flat();
  // Each answer's list, made once for the snapshot it belongs to (the answers live as long as it does).
  const sentHeaders = new WeakMap<BodyStateAnswer, string[]>();
  const headersOf = (answer: BodyStateAnswer) => {
    let headers = sentHeaders.get(answer);
    if (!headers) {
      headers = [...security, ...Object.entries(answer.headers).flat()];
      if (answer.json !== undefined) headers.push('content-length', String(Buffer.byteLength(answer.json)));
      sentHeaders.set(answer, headers);
    }
    return headers;
  };
  // What Fastify's `request.protocol` says on this listener (no proxy is trusted).
  const protocol = https ? 'https' : 'http';
  return (request, response) => {
    if (request.method !== 'GET' || request.url !== BODY_STATE_PATH) return false;
    // Fastify's `request.ip` without a trusted proxy.
    const ip = request.socket.remoteAddress ?? '';
    if (!isRateLimitExempt(config, ip)) return false;
    if (trust.refusal({ ip, headers: request.headers, protocol }, listeners.web)) return false;
    const answer = bodyStateAnswer(body, request.headers['if-none-match']);
    response.writeHead(answer.status, headersOf(answer));
    response.end(answer.json);
    return true;
  };
}
