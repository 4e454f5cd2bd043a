import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { record } from '../fixtures/components/record.ts';
import { FIXTURE_SKINS } from '../helpers/body.ts';
import { toneWav } from '../helpers/audio.ts';
import { fixtureRoots, shippedRoots } from '../helpers/component-roots.ts';
import { freshDatabase } from '../helpers/dialects.ts';
import { rawRequest } from '../helpers/raw-http.ts';
import { type TestServiceOptions, useTestApp } from '../helpers/services.ts';
import { openSocket } from '../helpers/sockets.ts';

type Message = { type: string; state?: string };

describe('integrations', () => {
  const subject = useTestApp({ startInTest: true, componentRoots: fixtureRoots, environment: { CORTEX_ENGINE: 'scripted' } });
  const open = (options: TestServiceOptions = {}) => subject.start(options);
  const settled = async () => {
    while (subject.harness.services.chain.pending > 0) await new Promise((resolve) => setTimeout(resolve, 2));
  };
  const post = (payload: unknown) => subject.app.inject({ method: 'POST', url: '/api/integrations/messages', payload: payload as object });
  const outbox = async (source: string) => (await subject.app.inject({ method: 'GET', url: `/api/integrations/outbox?source=${source}` })).json();

  beforeEach(() => record.reset());

  it('answers a chat into the source outbox, which is emptied by the read', async () => {
    await open();
    record.script.push('Hi desk!');
    const accepted = await post({ source: 'desk', type: 'chat', payload: { text: 'hello' }, metadata: { user_id: 'ann' } });
    expect(accepted.statusCode).toBe(202);
    expect(accepted.json()).toEqual({ accepted: true, id: expect.any(String) });
    await settled();
    const first = await outbox('desk');
    expect(first).toEqual({
      source: 'desk',
      messages: [
        {
          id: expect.any(String),
          type: 'chat',
          payload: { text: 'Hi desk!' },
          metadata: { in_reply_to: accepted.json().id, interface_path: 'integration/desk' },
          created_at: expect.any(String),
        },
      ],
    });
    expect((await outbox('desk')).messages).toEqual([]);
    const saved = await subject.harness.services.history.chat.load('integration/desk');
    expect(saved.map((item) => [item.sender_id, item.text])).toEqual([
      ['ann', 'hello'],
      ['self', 'Hi desk!'],
    ]);
  });

  it('stores other types for later retrieval', async () => {
    await open();
    const accepted = await post({ source: 'sensor', type: 'reading', payload: { lux: 300 } });
    expect(accepted.statusCode).toBe(202);
    const stored = (await subject.app.inject({ method: 'GET', url: '/api/integrations/messages?source=sensor' })).json();
    expect(stored.messages).toEqual([{ id: accepted.json().id, type: 'reading', payload: { lux: 300 }, metadata: {}, created_at: expect.any(String) }]);
    expect(record.prompts).toEqual([]);
  });

  it('refuses a malformed integration message with 400', async () => {
    await open();
    for (const payload of [
      { type: 'chat', payload: { text: 'x' } },
      { source: 'a b', type: 'chat', payload: {} },
      { source: 'desk', type: 'chat', payload: 'text' },
      { source: 'desk', type: 'chat', payload: { text: '  ' } },
    ]) {
      const response = await post(payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('invalid_request');
    }
    expect((await subject.app.inject({ method: 'GET', url: '/api/integrations/outbox' })).statusCode).toBe(400);
    // Deeper than JSON text can be written without overflowing the stack: sent as text, as a client would.
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    for (const body of [
      `{"source":"sensor","type":"reading","payload":${deep}}`,
      `{"source":"desk","type":"chat","payload":{"text":"hi"},"metadata":${deep}}`,
    ]) {
      const response = await subject.app.inject({
        method: 'POST',
        url: '/api/integrations/messages',
        headers: { 'content-type': 'application/json' },
        payload: body,
      });
      expect([response.statusCode, response.json().error.code]).toEqual([400, 'invalid_request']);
    }
  });

  it('says a chat text or a sender name is too long, with the limit, rather than missing', async () => {
    await open();
    const long = await post({ source: 'desk', type: 'chat', payload: { text: 'x'.repeat(500_000) } });
    expect([long.statusCode, long.json().error]).toEqual([
      400,
      { code: 'invalid_request', message: 'payload.text is too long: 500000 characters, at most 100000' },
    ]);
    const missing = await post({ source: 'desk', type: 'chat', payload: {} });
    expect(missing.json().error.message).toBe('A chat message needs payload.text (a non-empty string)');
    const sender = await post({ source: 'desk', type: 'chat', payload: { text: 'hi' }, metadata: { user_id: 'u'.repeat(300) } });
    expect([sender.statusCode, sender.json().error.message]).toEqual([400, 'metadata.user_id is too long: 300 characters, at most 255']);
    expect(record.prompts).toEqual([]);
  });

  it('answers 429 with Retry-After past the per-user rate limit', async () => {
    await open({ environment: { CHAT_RATE_LIMIT_BURST: '1', CHAT_RATE_LIMIT_PER_MINUTE: '1' } });
    expect((await post({ source: 'desk', type: 'chat', payload: { text: 'one' } })).statusCode).toBe(202);
    const limited = await post({ source: 'desk', type: 'chat', payload: { text: 'two' } });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    await settled();
  });

  it('keeps the outbox across a restart (send_companion_message)', async () => {
    const database = await freshDatabase('sqlite');
    try {
      await open({ databaseUrl: database.url });
      record.script.push(JSON.stringify({ actions: [{ type: 'send_companion_message', payload: { text: 'Stretch your legs!' } }] }));
      await post({ source: 'desk', type: 'chat', payload: { text: 'remind the companion' } });
      await settled();
      await subject.stop();
      await open({ databaseUrl: database.url });
      const after = await outbox('companion');
      expect(after.messages.map((message: { type: string; payload: unknown }) => [message.type, message.payload])).toEqual([
        ['chat', { text: 'Stretch your legs!' }],
      ]);
      expect((await outbox('companion')).messages).toEqual([]);
    } finally {
      await subject.stop();
      await database.drop();
    }
  });

  it('moves the avatar think → write → idle for a whole message, seen on a real /ws socket', async () => {
    await open({ environment: { SKINS_DIR: FIXTURE_SKINS } });
    await subject.app.listen({ host: '127.0.0.1', port: 0 });
    const client = await openSocket(`ws://127.0.0.1:${(subject.app.server.address() as AddressInfo).port}/ws`);
    try {
      client.socket.send(JSON.stringify({ type: 'hello', has_assets: [] }));
      await client.next((message) => (message as Message).type === 'vrm_animation');
      const seen = client.messages.length;
      record.script.push('Thinking done.');
      await post({ source: 'desk', type: 'chat', payload: { text: 'hello' } });
      await settled();
      await client.next(
        (message) => (message as Message).type === 'vrm_animation' && (message as Message).state === 'idle' && client.messages.indexOf(message) >= seen,
      );
      const later = client.messages.slice(seen) as Message[];
      expect(later.filter((message) => message.type === 'vrm_animation').map((message) => message.state)).toEqual(['think', 'write', 'idle']);
      expect(later.findIndex((message) => message.type === 'preload_animation')).toBeLessThan(later.findIndex((message) => message.state === 'think'));
    } finally {
      client.socket.close();
    }
  });
});

describe('media in the outbox', () => {
  const KEY = 'k3y-for-outbox-media';
  /** A speech server for the http Vox engine (its protocol: JSON in, audio out): a short WAV for any text, at once. */
  const speech = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'audio/wav' }).end(toneWav(0.2)));
  });
  beforeAll(() => new Promise<void>((resolve) => speech.listen(0, '127.0.0.1', resolve)));
  afterAll(() => new Promise<void>((resolve) => speech.close(() => resolve())));
  const subject = useTestApp({
    startInTest: true,
    listen: true,
    componentRoots: fixtureRoots,
    environment: { CORTEX_ENGINE: 'scripted', APP_TRUST_LOOPBACK: 'false', APP_API_KEY: KEY, ACTIVE_VOX_ENGINE: 'http', HTTP_TTS_FORMAT: 'wav' },
  });
  beforeEach(async () => {
    record.reset();
    await subject.start({ environment: { HTTP_TTS_ENDPOINTS: `http://127.0.0.1:${(speech.address() as AddressInfo).port}/tts` } });
  });
  const keyed = { 'x-api-key': KEY };
  const base = () => `http://127.0.0.1:${subject.ports.web}`;
  const outbox = async (source: string) =>
    (
      (await (await fetch(`${base()}/api/integrations/outbox?source=${source}`, { headers: keyed })).json()) as {
        messages: Array<{ payload: Record<string, string> }>;
      }
    ).messages;

  it('links speech by an HTTP URL on the web port, which the key or a session token downloads and nothing else does', async () => {
    record.script.push(JSON.stringify({ actions: [{ type: 'tts_speak', payload: { text: 'Hello from the avatar.' } }] }));
    const posted = await fetch(`${base()}/api/integrations/messages`, {
      method: 'POST',
      headers: { ...keyed, 'content-type': 'application/json' },
      body: JSON.stringify({ source: 'companion', type: 'chat', payload: { text: 'say hello' } }),
    });
    expect([posted.status, await posted.json()]).toEqual([202, { accepted: true, id: expect.any(String) }]);
    while (subject.harness.services.chain.pending > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const [message] = await outbox('companion');
    const media = message?.payload.media ?? '';
    expect(message?.payload.text).toBe('Hello from the avatar.');
    const prefix = `${base()}/api/integrations/media/`;
    expect(media.startsWith(prefix)).toBe(true);
    const name = media.slice(prefix.length);
    expect(name).toMatch(/^vox-\d+-[0-9a-f]{16}\.wav$/);
    const onDisk = await readFile(subject.harness.services.audio.files.pathOf(name) ?? '');
    // A plain GET of the URL's path, each on a connection of its own: a file's stream ends just after its last
    // byte reaches the client, and a kept-alive connection still busy then would hold the app's close.
    const path = new URL(media).pathname;
    const download = await rawRequest(subject.ports.web, { path, headers: keyed });
    expect([download.status, download.headers['content-type'], download.bytes.equals(onDisk)]).toEqual([200, 'audio/wav', true]);
    const { token } = (await (await fetch(`${base()}/api/session`, { method: 'POST', headers: keyed })).json()) as { token: string };
    const byToken = await rawRequest(subject.ports.web, { path, headers: { authorization: `Bearer ${token}` } });
    expect([byToken.status, byToken.bytes.equals(onDisk)]).toEqual([200, true]);
    const anonymous = await rawRequest(subject.ports.web, { path });
    expect([anonymous.status, JSON.parse(anonymous.body).error.code]).toEqual([401, 'unauthorized']);
  });

  it('refuses a media name that is not a speech file of its folder, however it is spelled', async () => {
    await writeFile(join(subject.harness.cwd, 'secret.wav'), 'RIFF, but not for you');
    for (const path of [
      '..%2Fsecret.wav',
      '%2e%2e%2fsecret.wav',
      '..%5Csecret.wav',
      '..%252Fsecret.wav',
      '../secret.wav',
      '%2Fetc%2Fpasswd',
      'vox-1-0123456789abcdef.wav',
    ]) {
      const answer = await rawRequest(subject.ports.web, { path: `/api/integrations/media/${path}`, headers: keyed });
      expect(answer.status, path).toBe(404);
      expect(answer.body, path).not.toContain('not for you');
    }
  });

  it('leaves out a file: URL outside the speech folder, and passes an http one on', async () => {
    const { integrations } = subject.harness.services;
    await integrations.enqueue('desk', { type: 'chat', payload: { text: 'a path of this machine', media: 'file:///etc/passwd' } });
    await integrations.enqueue('desk', { type: 'chat', payload: { text: 'on the web', media: 'https://example.com/picture.png' } });
    expect((await outbox('desk')).map((message) => message.payload)).toEqual([
      { text: 'a path of this machine' },
      { text: 'on the web', media: 'https://example.com/picture.png' },
    ]);
  });
});

describe('shipped plugins and the manual engine', () => {
  let provider: Server | undefined;
  let providerAnswers: Array<{ status: number; body: unknown }> = [];
  // Before useTestApp (after-hooks run in reverse), so the provider closes after the app that asked it.
  afterEach(async () => {
    providerAnswers = [];
    await new Promise((resolve) => (provider ? provider.close(resolve) : resolve(undefined)));
    provider = undefined;
  });
  const subject = useTestApp({ startInTest: true, componentRoots: shippedRoots });
  const open = (environment: Record<string, string>) => subject.start({ environment });
  const startProvider = async () => {
    provider = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://x');
      const answer = providerAnswers.shift() ?? {
        status: 200,
        body: {
          latitude: Number(url.searchParams.get('latitude')),
          longitude: Number(url.searchParams.get('longitude')),
          current_units: { temperature_2m: '°C' },
          current: {
            time: '2025-06-03T14:00',
            interval: 900,
            temperature_2m: 21.5,
            apparent_temperature: 22,
            relative_humidity_2m: 40,
            weather_code: 2,
            wind_speed_10m: 7.2,
          },
        },
      };
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
    await new Promise<void>((resolve) => provider?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(provider.address() as AddressInfo).port}/v1/forecast`;
  };

  it('GET /api/weather/current answers ok from the provider, then unavailable when it fails', async () => {
    await open({ WEATHER_PROVIDER_URL: await startProvider(), WEATHER_LATITUDE: '45.46', WEATHER_LONGITUDE: '9.19', WEATHER_CACHE_S: '0' });
    const ok = (await subject.app.inject({ method: 'GET', url: '/api/weather/current' })).json();
    expect(ok).toEqual({
      status: 'ok',
      last_fetch: expect.any(String),
      weather: {
        latitude: 45.46,
        longitude: 9.19,
        observed_at: '2025-06-03T14:00',
        temperature_c: 21.5,
        apparent_temperature_c: 22,
        humidity_percent: 40,
        wind_speed_kmh: 7.2,
        weather_code: 2,
        description: 'partly cloudy',
      },
    });
    providerAnswers.push({ status: 500, body: { error: true } });
    const down = (await subject.app.inject({ method: 'GET', url: '/api/weather/current' })).json();
    expect(down).toMatchObject({ status: 'unavailable', reason: 'the weather provider answered HTTP 500', last_fetch: ok.last_fetch });
  });

  it('asks the weather provider once for readings wanted at the same time', async () => {
    const url = await startProvider();
    let asked = 0;
    provider?.prependListener('request', () => (asked += 1));
    await open({ WEATHER_PROVIDER_URL: url, WEATHER_LATITUDE: '45.46', WEATHER_LONGITUDE: '9.19', WEATHER_CACHE_S: '0' });
    const readings = await Promise.all([1, 2, 3].map(() => subject.app.inject({ method: 'GET', url: '/api/weather/current' })));
    expect(readings.map((reading) => reading.json().status)).toEqual(['ok', 'ok', 'ok']);
    expect(asked).toBe(1);
  });

  it('GET /api/weather/current is unavailable with the reason while the plugin is not configured or unreachable', async () => {
    await open({ WEATHER_PROVIDER_URL: 'http://127.0.0.1:9/' });
    const gated = (await subject.app.inject({ method: 'GET', url: '/api/weather/current' })).json();
    expect(gated).toMatchObject({
      status: 'unavailable',
      weather: null,
      reason: expect.stringContaining('Missing required configuration: WEATHER_LATITUDE, WEATHER_LONGITUDE'),
    });
    await subject.harness.services.config.set('WEATHER_LATITUDE', '1');
    await subject.harness.services.config.set('WEATHER_LONGITUDE', '2');
    await new Promise((resolve) => setImmediate(resolve));
    const unreachable = (await subject.app.inject({ method: 'GET', url: '/api/weather/current' })).json();
    expect(unreachable).toMatchObject({ status: 'unavailable', reason: expect.stringContaining('cannot be reached') });
  });

  it('the manual engine lists pending prompts and delivers the operator answer; the diary and time plugins act', async () => {
    await open({ CORTEX_ENGINE: 'manual', PERSONA_TIMEZONE: 'Europe/Rome' });
    await subject.app.inject({
      method: 'POST',
      url: '/api/integrations/messages',
      payload: { source: 'desk', type: 'chat', payload: { text: 'what time is it?' } },
    });
    let pending: Array<{ id: string; interface_path: string; messages: Array<{ content: string }> }> = [];
    // Each look yields to the event loop: the prompt's context (the persona file's emotions) is read from disk.
    while (pending.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 2));
      pending = (await subject.app.inject({ method: 'GET', url: '/api/cortex/manual/pending' })).json().pending;
    }
    expect(pending[0]?.interface_path).toBe('integration/desk');
    expect(pending[0]?.messages[0]?.content).toContain('(Europe/Rome)');
    expect(pending[0]?.messages[0]?.content).toContain('- write_diary:');
    const answer = JSON.stringify({
      actions: [
        { type: 'write_diary', payload: { text: 'Someone asked the time.', tags: ['time'] } },
        { type: 'message_integration', payload: { text: 'Tea time.' } },
      ],
    });
    expect((await subject.app.inject({ method: 'POST', url: '/api/cortex/manual/answer', payload: { id: pending[0]?.id, text: answer } })).statusCode).toBe(
      200,
    );
    expect((await subject.app.inject({ method: 'POST', url: '/api/cortex/manual/answer', payload: { id: pending[0]?.id, text: 'again' } })).statusCode).toBe(
      404,
    );
    while (subject.harness.services.chain.pending > 0) await new Promise((resolve) => setTimeout(resolve, 2));
    const messages = (await subject.app.inject({ method: 'GET', url: '/api/integrations/outbox?source=desk' })).json().messages;
    expect(messages.map((message: { payload: { text: string } }) => message.payload.text)).toEqual(['Tea time.']);
    const diary = await subject.harness.services.history.diary.list({ limit: 10 });
    expect(diary.map((entry) => [entry.text, entry.tags, entry.interface_path])).toEqual([['Someone asked the time.', ['time'], 'integration/desk']]);
    const run = (await subject.app.inject({ method: 'POST', url: '/api/components/run', payload: { name: 'time' } })).json();
    expect(run.result.time_zone).toBe('Europe/Rome');
  });
});
