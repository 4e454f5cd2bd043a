import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ComponentRoots } from '../../src/components/discovery.ts';
import { routeInventory, type InventoryRoute } from '../../src/http/route-inventory.ts';
import { WEBUI_OUTPUT } from '../../src/system/webui-build.ts';
import { rawRequest, type RawResponse } from '../helpers/raw-http.ts';
import { useTestApp, type TestApp } from '../helpers/services.ts';
import { openSocket, type OpenedSocket } from '../helpers/sockets.ts';

/**
 * Every route both ports serve, found by the router's own record (hidden, socket, component and
 * later-registered routes included), refuses a caller without credentials. Only the contract's public
 * routes answer, and only to GET and HEAD.
 */

const KEY = 'k3y-for-the-security-pass';
const FOREIGN_HOST = 'evil.example';
const fixtures = fileURLToPath(new URL('../fixtures/security-components/', import.meta.url));
/** A plugin declaring a GET and a POST route under /api/, and a GET outside it. */
const componentRoots: ComponentRoots = {
  interface: `${fixtures}interface`,
  plugins: `${fixtures}plugins`,
  cortex: `${fixtures}cortex`,
  interfaceDev: `${fixtures}interface_dev`,
  pluginsDev: `${fixtures}plugins_dev`,
};
const environment = { APP_RATE_LIMIT_PER_MINUTE: '1000000', WEB_DEBUG: '1' };

/** The contract's public routes of the web port (GET and HEAD): the page and the skin, model and speech files. */
const PUBLIC_WEB_PATTERNS = new Set(['/', '/skins/*', '/animations/:state/:file', '/vrm/:file', '/tts/:file']);
/** The built web UI's files (one route each; none without a build). */
const isWebUiFile = (url: string) => url !== '/' && existsSync(join(WEBUI_OUTPUT, url));
const isRead = (method: string) => method === 'GET' || method === 'HEAD';

const isPublicWeb = (route: InventoryRoute) => isRead(route.method) && (PUBLIC_WEB_PATTERNS.has(route.url) || isWebUiFile(route.url));
/** The compat port's probe, and the CORS preflight (which answers only listed origins, and nothing else). */
const isPublicCompat = (route: InventoryRoute) => (isRead(route.method) && route.url === '/') || route.method === 'OPTIONS';

/** `/api/config/:key` → `/api/config/x`; `*` → `x`. */
const concrete = (url: string) =>
  url
    .replace(/:[^/]+/g, 'x')
    .replace(/\*/g, 'x')
    .replace(/^x/, '/x');

/** Sends `route` as a client without credentials would; bodies as JSON, the one type every route accepts. */
function call(port: number, route: InventoryRoute, headers: Record<string, string> = {}): Promise<RawResponse> {
  const withBody = !isRead(route.method) && route.method !== 'OPTIONS';
  return rawRequest(port, {
    method: route.method,
    path: concrete(route.url),
    headers: { ...(withBody ? { 'content-type': 'application/json' } : {}), ...headers },
    body: withBody ? '{}' : undefined,
  });
}

const label = (route: InventoryRoute) => `${route.method} ${route.url}`;
/** HTTP routes (not socket upgrades) a test calls over plain HTTP. */
const httpRoutes = (routes: readonly InventoryRoute[]) => routes.filter((route) => !route.websocket);
const socketRoutes = (routes: readonly InventoryRoute[]) => routes.filter((route) => route.websocket && route.method === 'GET');

/** Checks every answer with `expectation`, collecting the routes that fail it, so one run names them all. */
async function failures(port: number, routes: readonly InventoryRoute[], check: (answer: RawResponse, route: InventoryRoute) => boolean, headers = {}) {
  const failed: string[] = [];
  for (const route of routes) {
    const answer = await call(port, route, headers);
    if (!check(answer, route)) failed.push(`${label(route)} -> ${answer.status} ${answer.body.slice(0, 120)}`);
  }
  return failed;
}

/** The contract's error shape with this code (HEAD answers carry no body). */
const webRefusal = (status: number, code: string) => (answer: RawResponse, route: InventoryRoute) => {
  if (answer.status !== status) return false;
  if (route.method === 'HEAD') return true;
  const body = JSON.parse(answer.body) as { error?: { code?: unknown; message?: unknown } };
  return body.error?.code === code && typeof body.error.message === 'string' && Object.keys(body).length === 1;
};
/** The compat port's error shapes: Ollama's `{"error": "<text>"}`, OpenAI's `{"error": {message, type}}` under /v1/. */
const compatRefusal = (status: number) => (answer: RawResponse, route: InventoryRoute) => {
  if (answer.status !== status) return false;
  if (route.method === 'HEAD') return true;
  const { error, ...rest } = JSON.parse(answer.body) as { error?: string | { message?: unknown; type?: unknown } };
  if (Object.keys(rest).length > 0) return false;
  if (!route.url.startsWith('/v1/')) return typeof error === 'string';
  return typeof error === 'object' && typeof error.message === 'string' && typeof error.type === 'string';
};

/** The status the upgrade was answered with (101 when it upgraded); the socket is closed at once. */
function upgradeStatus(port: number, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}${path}`, { headers });
    socket.on('unexpected-response', (_request, response) => {
      response.resume();
      socket.terminate();
      resolve(response.statusCode ?? 0);
    });
    socket.on('upgrade', () => {
      socket.terminate();
      resolve(101);
    });
    socket.on('error', (error) => reject(error));
  });
}

function inventories(subject: TestApp) {
  return { web: routeInventory(subject.app), compat: routeInventory(subject.compat) };
}

describe('every route and socket refuses an untrusted caller (APP_TRUST_LOOPBACK=false, APP_API_KEY set)', () => {
  const subject = useTestApp({
    once: true,
    compat: true,
    listen: true,
    componentRoots,
    helloTimeoutMs: 300,
    environment: { ...environment, APP_TRUST_LOOPBACK: 'false', APP_API_KEY: KEY },
  });
  let routes: ReturnType<typeof inventories>;
  let sockets: OpenedSocket[] = [];

  beforeAll(() => {
    routes = inventories(subject);
  });
  afterEach(() => {
    for (const { socket } of sockets) socket.terminate();
    sockets = [];
  });

  it('enumerates every route: the OpenAPI document, sockets, hidden files and component routes', () => {
    const document = subject.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`),
    );
    const enumerated = new Set(routes.web.map(label));
    expect(documented.length).toBeGreaterThan(50);
    expect(documented.filter((operation) => !enumerated.has(operation))).toEqual([]);
    expect(socketRoutes(routes.web).map((route) => route.url)).toEqual(expect.arrayContaining(['/ws', '/api/body/ws', '/api/audio/stream', '/logs']));
    expect([...enumerated]).toEqual(expect.arrayContaining(['GET /api/routed/reading', 'POST /api/routed/command', 'HEAD /api/routed/reading']));
    expect([...enumerated].filter((operation) => operation.includes('/routed-outside-api'))).toEqual([]);
    expect(routes.compat.map(label)).toEqual(expect.arrayContaining(['GET /', 'POST /api/chat', 'POST /v1/chat/completions']));
  });

  it('answers 401 unauthorized, in the contract shape, on every web route but the public files', async () => {
    const guarded = httpRoutes(routes.web).filter((route) => !isPublicWeb(route));
    expect(await failures(subject.ports.web, guarded, webRefusal(401, 'unauthorized'))).toEqual([]);
  }, 120_000);

  it('answers 401 on every compat route but the probe, in Ollama error shape', async () => {
    const guarded = routes.compat.filter((route) => !isPublicCompat(route));
    expect(guarded.length).toBeGreaterThan(8);
    expect(await failures(subject.ports.compat, guarded, compatRefusal(401))).toEqual([]);
  });

  it('refuses a wrong key as it refuses none', async () => {
    const guarded = httpRoutes(routes.web).filter((route) => !isPublicWeb(route));
    expect(await failures(subject.ports.web, guarded, webRefusal(401, 'unauthorized'), { 'x-api-key': `${KEY}-wrong` })).toEqual([]);
    const compatGuarded = routes.compat.filter((route) => !isPublicCompat(route));
    expect(await failures(subject.ports.compat, compatGuarded, compatRefusal(401), { authorization: 'Bearer not-the-key' })).toEqual([]);
  });

  it('serves a component route only with the key', async () => {
    const reading = { method: 'GET', url: '/api/routed/reading', websocket: false, hidden: false };
    expect((await call(subject.ports.web, reading)).status).toBe(401);
    const keyed = await call(subject.ports.web, reading, { 'x-api-key': KEY });
    expect([keyed.status, JSON.parse(keyed.body)]).toEqual([200, { reading: 1 }]);
    expect((await rawRequest(subject.ports.web, { path: '/routed-outside-api' })).status).toBe(404);
  });

  it('answers a socket route only with an upgrade, and serves no plain GET of it', async () => {
    for (const route of socketRoutes(routes.web)) {
      const plain = await call(subject.ports.web, route);
      expect(plain.status, label(route)).toBeGreaterThanOrEqual(400);
    }
  });

  it.each([
    ['no hello in time', undefined],
    ['a first message that is not a hello', JSON.stringify({ type: 'chat', text: 'hi' })],
    ['a hello without a token', JSON.stringify({ type: 'hello', has_assets: [] })],
    ['a hello with a wrong token', JSON.stringify({ type: 'hello', token: `${KEY}-wrong` })],
    ['a hello with a token of the right form that was never issued', JSON.stringify({ type: 'hello', token: 'x'.repeat(43) })],
  ])('closes every socket with 4401 after %s', async (_case, first) => {
    const closes: Record<string, number> = {};
    for (const route of socketRoutes(routes.web)) {
      const client = await openSocket(`ws://127.0.0.1:${subject.ports.web}${route.url}`);
      sockets.push(client);
      if (first !== undefined) client.socket.send(first);
      closes[route.url] = await client.closed;
      expect(client.messages, route.url).toEqual([]);
    }
    expect(Object.values(closes).length).toBeGreaterThanOrEqual(4);
    expect(Object.entries(closes).filter(([, code]) => code !== 4401)).toEqual([]);
  });

  it('admits a socket whose hello carries a session token', async () => {
    const grant = await rawRequest(subject.ports.web, {
      method: 'POST',
      path: '/api/session',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: '{}',
    });
    const { token } = JSON.parse(grant.body) as { token: string };
    const client = await openSocket(`ws://127.0.0.1:${subject.ports.web}/logs`);
    sockets.push(client);
    client.socket.send(JSON.stringify({ type: 'hello', token }));
    expect(await client.next((message) => (message as { type?: string }).type === 'ready')).toEqual({ type: 'ready' });
  });
});

describe('loopback trust never reaches a foreign Host or a foreign page (APP_TRUST_LOOPBACK=true)', () => {
  const subject = useTestApp({ once: true, compat: true, listen: true, componentRoots, environment });
  let routes: ReturnType<typeof inventories>;

  beforeAll(() => {
    routes = inventories(subject);
  });

  it('answers 403 forbidden_host on every route of both ports, public ones included', async () => {
    const host = { host: FOREIGN_HOST };
    expect(await failures(subject.ports.web, httpRoutes(routes.web), webRefusal(403, 'forbidden_host'), host)).toEqual([]);
    expect(await failures(subject.ports.compat, routes.compat, compatRefusal(403), host)).toEqual([]);
  }, 120_000);

  it('refuses every socket upgrade with a foreign Host or Origin (403) before it happens', async () => {
    const statuses: string[] = [];
    for (const route of socketRoutes(routes.web)) {
      const foreign: Array<Record<string, string>> = [{ host: FOREIGN_HOST }, { origin: `http://${FOREIGN_HOST}` }];
      for (const headers of foreign) {
        statuses.push(`${route.url} ${Object.keys(headers)[0]} ${await upgradeStatus(subject.ports.web, route.url, headers)}`);
      }
    }
    expect(statuses.filter((line) => !line.endsWith(' 403'))).toEqual([]);
  });

  it('answers 403 forbidden_origin on every guarded web route for a page of another site', async () => {
    const guarded = httpRoutes(routes.web).filter((route) => !isPublicWeb(route));
    expect(await failures(subject.ports.web, guarded, webRefusal(403, 'forbidden_origin'), { origin: `https://${FOREIGN_HOST}` })).toEqual([]);
  }, 120_000);

  it('serves the public files to loopback, to GET and HEAD only', () => {
    const publicRoutes = httpRoutes(routes.web).filter(isPublicWeb);
    expect(publicRoutes.every((route) => isRead(route.method))).toBe(true);
    expect(publicRoutes.map(label)).toEqual(expect.arrayContaining(['GET /skins/*', 'GET /animations/:state/:file', 'GET /vrm/:file', 'GET /tts/:file']));
  });
});
