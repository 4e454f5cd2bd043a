import { once } from 'node:events';
import { connect } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildCompatApp } from '../../src/compat/app.ts';
import { HEADERS_ALONE_AFTER_MS } from '../../src/compat/http-stream.ts';
import { settled, startCompat, type CompatHarness } from '../helpers/compat.ts';
import { ManualClock } from '../helpers/manual-clock.ts';
import { createTestServices } from '../helpers/services.ts';

const REMOTE = '203.0.113.7';

async function lines(response: Response): Promise<string[]> {
  const body = await response.text();
  expect(body.endsWith('\n')).toBe(true);
  return body.slice(0, -1).split('\n');
}

describe('compat port framing, errors and trust', () => {
  let harness: CompatHarness;
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${harness.url}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  afterEach(async () => harness?.close());

  it('streams NDJSON by default: one JSON object per line, the last one done, with CORS for an allowed browser origin', async () => {
    harness = await startCompat({ COMPAT_ALLOWED_ORIGINS: 'http://localhost:3000' });
    harness.model.script({ kind: 'reply', text: 'One two three four.', chunkSize: 3 });
    const response = await post('/api/chat', JSON.stringify({ model: 'anima', messages: [{ role: 'user', content: 'count' }] }), {
      origin: 'http://localhost:3000',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-ndjson');
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    const objects = (await lines(response)).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(objects.length).toBeGreaterThan(2);
    for (const object of objects.slice(0, -1)) {
      expect(Object.keys(object)).toEqual(['model', 'created_at', 'message', 'done']);
      expect(object.done).toBe(false);
      expect(new Date(object.created_at as string).toISOString()).toBe(object.created_at);
    }
    expect(Object.keys(objects.at(-1) ?? {})).toEqual([
      'model',
      'created_at',
      'message',
      'done_reason',
      'done',
      'total_duration',
      'load_duration',
      'prompt_eval_count',
      'prompt_eval_duration',
      'eval_count',
      'eval_duration',
    ]);
    expect(objects.map((object) => (object.message as { content: string }).content).join('')).toBe('One two three four.');
  });

  it('sends each chunk as the model produces it, not at the end', async () => {
    harness = await startCompat();
    // The model sends its first words and then nothing more: they can only reach the client if streamed.
    harness.model.script({ kind: 'stall', text: 'sl', chunkSize: 2 });
    const response = await post('/api/generate', JSON.stringify({ prompt: 'go' }));
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = JSON.parse(new TextDecoder().decode((await reader.read()).value).split('\n')[0] ?? '');
    expect(first).toMatchObject({ model: 'anima:latest', response: 'sl', done: false });
    await reader.cancel();
    await harness.model.waitForAborted(1);
  });

  it('sends the headers with the first chunk when the model answers at once, and alone while it is still silent', async () => {
    const clock = new ManualClock();
    harness = await startCompat({}, clock);
    const firstPacket = async () => {
      const socket = connect({ host: '127.0.0.1', port: Number(new URL(harness.url).port) });
      await once(socket, 'connect');
      const body = JSON.stringify({ messages: [{ role: 'user', content: 'hello?' }] });
      socket.write(`POST /api/chat HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
      const [data] = (await once(socket, 'data')) as [Buffer];
      socket.destroy();
      return data.toString('utf8');
    };
    harness.model.script({ kind: 'reply', text: 'Right away.' });
    const fast = await firstPacket();
    expect(fast).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(fast).toContain('"done":false');
    harness.model.script({ kind: 'hang' });
    const slowPacket = firstPacket();
    await vi.waitFor(() => expect(harness.model.requests).toHaveLength(2), { timeout: 10_000 });
    clock.advance(HEADERS_ALONE_AFTER_MS);
    const slow = await slowPacket;
    expect(slow).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\n$/);
    await harness.model.waitForAborted(1);
    await settled(harness);
  });

  it('answers 400 with {error} for malformed JSON and missing or wrongly typed messages or prompt', async () => {
    harness = await startCompat();
    const cases: Array<[string, string]> = [
      ['/api/chat', '{oops'],
      ['/api/chat', JSON.stringify({ model: 'anima' })],
      ['/api/chat', JSON.stringify({ messages: 'hello' })],
      ['/api/chat', JSON.stringify({ messages: [{ role: 'user', content: 42 }] })],
      ['/api/chat', JSON.stringify({ messages: [{ role: 'system', content: 'only a system prompt' }] })],
      ['/api/generate', JSON.stringify({ model: 'anima' })],
      ['/api/generate', JSON.stringify({ prompt: ['a'] })],
    ];
    for (const [path, body] of cases) {
      const response = await post(path, body);
      expect(response.status, body).toBe(400);
      expect(await response.json()).toEqual({ error: expect.any(String) });
    }
    const badHeader = await post('/api/chat', JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }), { 'x-anima-conversation': 'no spaces allowed' });
    expect(badHeader.status).toBe(400);
    expect(harness.model.requests).toHaveLength(0);
  });

  it('answers /api/models/{name} for a known model and 404 {error} for an unknown one; unknown routes are 404 too', async () => {
    harness = await startCompat();
    const known = await fetch(`${harness.url}/api/models/anima`);
    expect(await known.json()).toMatchObject({ id: 'anima:latest', name: 'anima:latest', model: 'anima:latest', display_name: 'Anima', engine: null });
    const unknown = await fetch(`${harness.url}/api/models/llama3`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: "model 'llama3' not found" });
    expect((await fetch(`${harness.url}/api/pull`, { method: 'POST', body: '{}' })).status).toBe(404);
    const openAiMissing = await fetch(`${harness.url}/v1/embeddings`, { method: 'POST', body: '{}' });
    expect(((await openAiMissing.json()) as { error: unknown }).error).toMatchObject({ message: expect.any(String), type: 'invalid_request_error' });
  });

  it('keeps the newest turns the chain takes when COMPAT_MAX_HISTORY allows more than it does', async () => {
    harness = await startCompat({ COMPAT_MAX_HISTORY: '5000' });
    const messages = Array.from({ length: 1501 }, (_, index) => ({ role: index % 2 === 0 ? 'user' : 'assistant', content: `turn ${index}` }));
    const response = await post('/api/chat', JSON.stringify({ model: 'anima', stream: false, messages }));
    expect(response.status).toBe(200);
    const sent = harness.model.requests[0]?.body.messages ?? [];
    // The system prompt, the newest 1,000 earlier turns, the question.
    expect(sent.length).toBe(1002);
    expect(sent[1]?.content).toBe('turn 500');
    expect(sent.at(-1)?.content).toBe('turn 1500');
  });

  it('answers 429 {error} with Retry-After, not 500, once a conversation has as many requests waiting as the chain queues', async () => {
    harness = await startCompat();
    harness.model.fallback = { kind: 'hang' };
    const stop = new AbortController();
    const ask = (path: string, content: string, signal?: AbortSignal) =>
      fetch(`${harness.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-anima-conversation': 'flood' },
        body: JSON.stringify({ model: 'anima', messages: [{ role: 'user', content }] }),
        signal,
      });
    try {
      // Streamed answers are accepted (200) while they wait: one being answered, twenty queued behind it.
      const accepted = [];
      for (let index = 0; index < 21; index += 1) accepted.push((await ask('/api/chat', `hi ${index}`, stop.signal)).status);
      expect(new Set(accepted)).toEqual(new Set([200]));
      const refused = await ask('/api/chat', 'one more');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await refused.json()).toEqual({ error: expect.stringContaining('too many requests waiting') });
      const openAi = await ask('/v1/chat/completions', 'and another');
      expect([openAi.status, ((await openAi.json()) as { error: { type: string } }).error.type]).toEqual([429, 'rate_limit_error']);
    } finally {
      stop.abort();
      await harness.model.waitForAborted(1);
      await settled(harness);
    }
  });

  it('requires trust except for the probe: a remote client without the key gets 401, with it an answer', async () => {
    harness = await startCompat({ APP_API_KEY: 'k3y' });
    const { app } = harness;
    const probe = await app.inject({ method: 'GET', url: '/', remoteAddress: REMOTE });
    expect([probe.statusCode, probe.body]).toEqual([200, 'Ollama is running']);
    expect((await app.inject({ method: 'HEAD', url: '/', remoteAddress: REMOTE })).statusCode).toBe(200);
    for (const url of ['/api/tags', '/api/version', '/v1/models'])
      expect((await app.inject({ method: 'GET', url, remoteAddress: REMOTE })).statusCode).toBe(401);
    const chat = await app.inject({ method: 'POST', url: '/api/chat', remoteAddress: REMOTE, payload: { messages: [{ role: 'user', content: 'hi' }] } });
    expect([chat.statusCode, chat.json()]).toEqual([401, { error: expect.any(String) }]);
    const openAi = await app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      remoteAddress: REMOTE,
      payload: { messages: [{ role: 'user', content: 'hi' }] },
    });
    expect([openAi.statusCode, openAi.json().error.type]).toEqual([401, 'authentication_error']);
    const keyed = await app.inject({
      method: 'POST',
      url: '/api/chat',
      remoteAddress: REMOTE,
      headers: { authorization: 'Bearer k3y' },
      payload: { stream: false, messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(keyed.json()).toMatchObject({ done: true, message: { content: 'Hello from the fake model.' } });
    expect(harness.model.requests).toHaveLength(1);
  });

  it('answers 503 {error} on the chat routes while the compat interface is not loaded; the catalogue still answers', async () => {
    const test = await createTestServices();
    const app = await buildCompatApp(test.services);
    try {
      const chat = await app.inject({ method: 'POST', url: '/api/chat', payload: { messages: [{ role: 'user', content: 'hi' }] } });
      expect(chat.statusCode).toBe(503);
      expect(chat.json().error).toContain('compat interface is not loaded');
      expect((await app.inject({ method: 'GET', url: '/api/tags' })).json().models).toHaveLength(1);
    } finally {
      await app.close();
      await test.close();
    }
  });
});
