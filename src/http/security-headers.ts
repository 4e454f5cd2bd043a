import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/** `upgrade-insecure-requests` is left out on purpose: the web UI is served over plain HTTP on a LAN. */
const CONTENT_SECURITY_POLICY = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    baseUri: ["'self'"],
    scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
    scriptSrcAttr: ["'none'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    fontSrc: ["'self'", 'data:'],
    imgSrc: ["'self'", 'data:', 'blob:'],
    mediaSrc: ["'self'", 'data:', 'blob:'],
    connectSrc: ["'self'", 'ws:', 'wss:', 'data:', 'blob:'],
    workerSrc: ["'self'", 'blob:'],
    objectSrc: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: ["'self'"],
  },
};

/**
 * The headers helmet sets for our policy. They are the same for every response, so helmet computes them
 * once here and each response copies them, instead of running helmet's middleware per request.
 */
export function securityHeaders(https: boolean): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet({ contentSecurityPolicy: CONTENT_SECURITY_POLICY, strictTransportSecurity: https })(
    {} as Parameters<ReturnType<typeof helmet>>[0],
    recorder as unknown as Parameters<ReturnType<typeof helmet>>[1],
    () => {},
  );
  return headers;
}

/**
 * JSON answers are never rendered as documents, so the document policies (CSP directives, frame and
 * origin isolation) mean nothing there. They get what protects data: no sniffing, no cross-origin
 * embedding, no framing, no referrer.
 */
export function apiSecurityHeaders(https: boolean): Record<string, string> {
  const full = securityHeaders(https);
  const keep = ['x-content-type-options', 'cross-origin-resource-policy', 'referrer-policy', 'strict-transport-security'];
  const headers = Object.fromEntries(keep.flatMap((name) => (full[name] === undefined ? [] : [[name, full[name]]])));
  return { ...headers, 'content-security-policy': "frame-ancestors 'none'" };
}

export function addSecurityHeaders(app: FastifyInstance, https: boolean): void {
  const documents = securityHeaders(https);
  const api = apiSecurityHeaders(https);
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.url.startsWith('/api/') ? api : documents);
    done();
  });
}
