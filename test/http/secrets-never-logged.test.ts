import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSecretKey } from '../../src/config/define.ts';
import { ConfigStore } from '../../src/config/store.ts';
import { shippedRoots } from '../helpers/component-roots.ts';
import { rawRequest } from '../helpers/raw-http.ts';
import { useTestApp } from '../helpers/services.ts';

/** Every secret-named variable of the schema, each with a value of its own that a log line would betray. */
const secretVariables = ConfigStore.fromSources({ environment: {} })
  .keys()
  .filter(isSecretKey)
  .map((key) => [key, `marker-${key.toLowerCase().replaceAll('_', '-')}-9c41`] as const);
const URL_PASSWORD = 'marker-url-password-5e02';
const QUERY_KEY = 'marker-query-key-0d6e';
const HEADER_TOKEN = 'marker-header-token-77d1';
const SAVED_KEY = 'marker-saved-through-the-api-3b8a';
/** Also as HTTP Basic credentials, the form a client sends a URL's user info in. */
const BASIC = Buffer.from(`anima:${URL_PASSWORD}`).toString('base64');
const MARKERS = [...secretVariables.map(([, marker]) => marker), URL_PASSWORD, BASIC, QUERY_KEY, HEADER_TOKEN, SAVED_KEY];

/** A model server that refuses every call and quotes back everything it was sent: the path and every header. */
async function startEchoingModelServer(): Promise<{ port: number; calls: () => number; server: Server }> {
  let calls = 0;
  const server = createServer((request, response) => {
    calls += 1;
    request.resume();
    const quoted = `${request.method} ${request.url} with ${JSON.stringify(request.headers)}`;
    response
      .writeHead(401, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { message: `Incorrect API key provided: ${quoted}`, type: 'invalid_request_error' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, calls: () => calls, server };
}

const lines: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});
const model = await startEchoingModelServer();
const empty = fileURLToPath(new URL('../fixtures/security-components/none/', import.meta.url));

describe('secrets never reach the log', () => {
  const subject = useTestApp({
    once: true,
    compat: true,
    listen: true,
    logLevel: 'trace',
    logDestination: sink,
    // Only the Cortex engines load: no chat platform tries to log in with a marker token.
    componentRoots: { cortex: shippedRoots.cortex, interface: empty, plugins: empty, interfaceDev: empty, pluginsDev: empty },
    environment: {
      ...Object.fromEntries(secretVariables),
      APP_TRUST_LOOPBACK: 'false',
      CORTEX_ENGINE: 'openai',
      OPENAI_MAX_RETRIES: '0',
      OPENAI_BASE_URL: `http://anima:${URL_PASSWORD}@127.0.0.1:${model.port}/v1?api_key=${QUERY_KEY}`,
      HTTP_TTS_EXTRA_HEADERS: JSON.stringify({ Authorization: `Bearer ${HEADER_TOKEN}` }),
    },
  });

  beforeAll(() => expect(secretVariables.length).toBeGreaterThan(10));
  afterAll(async () => new Promise<void>((resolve) => model.server.close(() => resolve())));

  it('sets a marker in every secret variable of the schema', () => {
    expect(secretVariables.map(([key]) => key)).toEqual(expect.arrayContaining(['APP_API_KEY', 'OPENAI_API_KEY', 'DISCORD_BOT_TOKEN', 'MATRIX_PASSWORD']));
  });

  it('keeps them out of the start-up, a config save and a failing engine call that quotes them back', async () => {
    const { services } = subject.harness;
    const key = services.config.get('APP_API_KEY');
    const saved = await rawRequest(subject.ports.web, {
      method: 'POST',
      path: '/api/config',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ key: 'OPENAI_API_KEY', value: SAVED_KEY }),
    });
    expect(saved.status).toBe(200);
    expect(saved.body).not.toContain(SAVED_KEY);
    // A wrong key in a request is refused without being written down either.
    expect((await rawRequest(subject.ports.web, { path: '/api/about', headers: { 'x-api-key': `${key}-wrong` } })).status).toBe(401);

    const { chain } = await services.integrations.ingest({ source: 'tester', type: 'chat', payload: { text: 'hello?' }, metadata: {} });
    if (chain?.status !== 'queued') throw new Error(`not queued: ${chain?.status}`);
    expect((await chain.done).outcome).toBe('error');
    expect(model.calls()).toBe(1);

    const quoted = lines.filter((line) => line.includes('Incorrect API key provided'));
    expect(quoted.length).toBeGreaterThan(0);
    expect(quoted.join('\n')).toContain('[redacted]');
    expect(lines.length).toBeGreaterThan(5);
    const leaks = lines.flatMap((line) => MARKERS.filter((marker) => line.includes(marker)).map((marker) => `${marker} in ${line.slice(0, 300)}`));
    expect(leaks).toEqual([]);
  });
});
