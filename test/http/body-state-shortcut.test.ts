import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { FastifyRequest } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIXTURE_SKINS } from '../helpers/body.ts';
import { type RawResponse, rawRequest } from '../helpers/raw-http.ts';
import { useTestApp } from '../helpers/services.ts';

const EXACT = '/api/body/state';
/** The same route through Fastify: the read answered before routing takes the exact path alone. */
const ROUTED = '/api/body/state?';
const HANDLER_START = 'tracing:fastify.request.handler:start';

/** Everything a client sees but the date, headers in the order they came. */
const seen = ({ status, headers, body }: RawResponse) => ({ status, headers: Object.entries(headers).filter(([name]) => name !== 'date'), body });

/** The paths of the requests that reached a Fastify route handler. */
function handledByFastify() {
  const paths: string[] = [];
  const record = (message: unknown) => void paths.push((message as { request: FastifyRequest }).request.url);
  beforeEach(() => subscribe(HANDLER_START, record));
  afterEach(() => void unsubscribe(HANDLER_START, record));
  return paths;
}

describe('GET /api/body/state answered before routing', () => {
  const subject = useTestApp({ listen: true, environment: { SKINS_DIR: FIXTURE_SKINS } });
  const handled = handledByFastify();
  const poll = (path: string, headers: Record<string, string> = {}) => rawRequest(subject.ports.web, { path, headers });

  it("answers what the route answers, byte for byte, without Fastify's handler", async () => {
    const { etag = '' } = (await poll(EXACT)).headers;
    subject.harness.services.body.setFaceValues({ Joy: 0.5 });
    const current = (await poll(EXACT)).headers.etag ?? '';
    expect(current).not.toBe(etag);
    handled.length = 0;
    for (const held of [undefined, current, `"elsewhere", ${current}`, `W/${current}`, etag, '*']) {
      const headers: Record<string, string> = held === undefined ? {} : { 'if-none-match': held };
      const shortcut = await poll(EXACT, headers);
      expect(seen(shortcut), held).toStrictEqual(seen(await poll(ROUTED, headers)));
      expect(shortcut.status, held).toBe(held === current || held?.startsWith('"elsewhere"') ? 304 : 200);
    }
    expect(handled).toStrictEqual(Array(6).fill(ROUTED));
  });

  it('leaves to Fastify what the trust rules refuse, and answers the page of this machine', async () => {
    const own = `http://127.0.0.1:${subject.ports.web}`;
    const cases: [Record<string, string>, number][] = [
      [{ host: 'rebound.example' }, 403],
      [{ origin: 'https://elsewhere.example' }, 403],
      [{ origin: own, 'sec-fetch-site': 'same-origin' }, 200],
    ];
    for (const [headers, status] of cases) {
      const shortcut = await poll(EXACT, headers);
      expect(shortcut.status, JSON.stringify(headers)).toBe(status);
      expect(seen(shortcut), JSON.stringify(headers)).toStrictEqual(seen(await poll(ROUTED, headers)));
    }
  });

  it('leaves a request it failed on to the route', async () => {
    const { body } = subject.harness.services;
    const expected = body.getFullStateJson().json;
    vi.spyOn(body, 'getFullStateJson').mockImplementationOnce(() => {
      throw new Error('a broken snapshot');
    });
    handled.length = 0;
    const answer = await poll(EXACT);
    expect(answer.status).toBe(200);
    expect(answer.body).toBe(expected);
    expect(handled).toStrictEqual([EXACT]);
  });

  it('leaves HEAD and other spellings of the path to Fastify', async () => {
    handled.length = 0;
    for (const path of ['/api/body/state/', '/api//body/state', '/api/body/state?x=1']) await poll(path);
    await rawRequest(subject.ports.web, { method: 'HEAD', path: EXACT });
    expect(handled).toStrictEqual(['/api/body/state?x=1', EXACT]);
  });
});

describe('GET /api/body/state for clients the rate limit counts', () => {
  const subject = useTestApp({
    listen: true,
    environment: { SKINS_DIR: FIXTURE_SKINS, APP_TRUST_LOOPBACK: 'false', APP_API_KEY: 'k', APP_RATE_LIMIT_PER_MINUTE: '2' },
  });
  const poll = (path: string, headers: Record<string, string> = {}) => rawRequest(subject.ports.web, { path, headers });

  it('counts every poll, refuses the one over the limit, and refuses a client without the key', async () => {
    expect((await poll(EXACT)).status).toBe(401);
    expect((await poll(EXACT, { 'x-api-key': 'k' })).status).toBe(200);
    const over = await poll(EXACT, { 'x-api-key': 'k' });
    expect(over.status).toBe(429);
    expect(seen(over)).toMatchObject(seen(await poll(ROUTED, { 'x-api-key': 'k' })));
  });
});
