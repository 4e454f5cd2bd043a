import { beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../helpers/raw-http.ts';
import { useTestApp } from '../helpers/services.ts';

const KEY = 'k3y-for-encoded-paths';
/** Statuses that serve nothing: refused, not found, or a malformed URL. */
const REFUSED = [400, 401, 404];

/** Spellings of one path that a router might match while a check of the raw URL would not. */
function variants(path: string): string[] {
  const rest = path.slice('/api'.length);
  return [
    `/%61pi${rest}`,
    `/%61%70%69${rest}`,
    `/a%70i${rest}`,
    `/API${rest}`,
    `/Api${rest}`,
    `//api${rest}`,
    `/api/${rest}`,
    `/./api${rest}`,
    `/x/../api${rest}`,
    `/api${rest.replace('/', '%2F')}`,
    `/%2561pi${rest}`,
    `/api${rest}/`,
    `/api${rest}?x=1`,
  ];
}

/** `/api/x/{id}/y` with a value in every parameter. */
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, 'x');

describe('trust is decided on the route that matched, whatever the URL spelling', () => {
  const subject = useTestApp({
    once: true,
    compat: true,
    listen: true,
    environment: { APP_TRUST_LOOPBACK: 'false', APP_API_KEY: KEY, APP_RATE_LIMIT_PER_MINUTE: '1000000', WEB_DEBUG: '1' },
  });
  let ports = { web: 0, compat: 0 };
  let operations: Array<{ method: string; path: string }> = [];

  beforeAll(() => {
    ports = subject.ports;
    const document = subject.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path: concrete(path) })),
    );
  });

  it('documents the API routes it enumerates', () => {
    expect(operations.length).toBeGreaterThan(50);
    expect(operations).toContainEqual({ method: 'GET', path: '/api/config' });
    expect(operations).toContainEqual({ method: 'POST', path: '/api/session' });
  });

  it('refuses every OpenAPI route without the key, in every spelling, and serves it with the key', async () => {
    const served: string[] = [];
    for (const { method, path } of operations) {
      const withKey = await rawRequest(ports.web, { method, path, headers: { 'x-api-key': KEY } });
      // The route is real: with the key it answers something other than a refusal of trust.
      expect(withKey.status, `${method} ${path} with the key`).not.toBe(401);
      const spellings = [path, ...variants(path)];
      const answers = await Promise.all(spellings.map((spelling) => rawRequest(ports.web, { method, path: spelling })));
      for (const [index, answer] of answers.entries()) if (!REFUSED.includes(answer.status)) served.push(`${method} ${spellings[index]} -> ${answer.status}`);
    }
    expect(served).toEqual([]);
  }, 60_000);

  it('gives no session token to an encoded /api/session', async () => {
    const before = subject.harness.services.trust.tokens.activeCount();
    for (const path of ['/%61pi/session', '/api/%73ession', '/API/session']) {
      const answer = await rawRequest(ports.web, { method: 'POST', path, headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(REFUSED, path).toContain(answer.status);
      expect(answer.body).not.toContain('"token"');
    }
    expect(subject.harness.services.trust.tokens.activeCount()).toBe(before);
  });

  it('refuses the compat routes without the key in every spelling, and leaves only the probe open', async () => {
    const routes = [
      { method: 'GET', path: '/api/tags' },
      { method: 'GET', path: '/api/version' },
      { method: 'POST', path: '/api/chat' },
      { method: 'POST', path: '/api/generate' },
      { method: 'POST', path: '/api/show' },
      { method: 'GET', path: '/v1/models' },
      { method: 'POST', path: '/v1/chat/completions' },
    ];
    const served: string[] = [];
    for (const { method, path } of routes) {
      const spellings = path.startsWith('/v1/') ? [path, `/%76${path.slice(2)}`, `/v1/%6Dodels`, `/V1${path.slice(3)}`, `/${path}`] : [path, ...variants(path)];
      for (const spelling of spellings) {
        const answer = await rawRequest(ports.compat, {
          method,
          path: spelling,
          headers: { 'content-type': 'application/json' },
          body: method === 'POST' ? '{}' : undefined,
        });
        if (!REFUSED.includes(answer.status)) served.push(`${method} ${spelling} -> ${answer.status}`);
      }
    }
    expect(served).toEqual([]);
    expect((await rawRequest(ports.compat, { path: '/' })).status).toBe(200);
  });
});
