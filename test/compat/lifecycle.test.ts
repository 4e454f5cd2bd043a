import { Ollama } from 'ollama';
import OpenAI from 'openai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startCompat, settled, type CompatHarness } from '../helpers/compat.ts';
import { ManualClock } from '../helpers/manual-clock.ts';

/** What the official clients send; the compat port reads JSON bodies only. */
const JSON_TYPE = { 'content-type': 'application/json' };
const chatBody = (content: string, extra: Record<string, unknown> = {}) => JSON.stringify({ model: 'anima', messages: [{ role: 'user', content }], ...extra });

describe('compat answers: cancellation, timeouts, concurrency', () => {
  let harness: CompatHarness;
  afterEach(async () => harness?.close());

  it('cancels the generation when the client disconnects mid-stream: the model request is aborted', async () => {
    harness = await startCompat();
    harness.model.script({ kind: 'reply', text: 'a very long answer that takes its time', chunkSize: 2, delayMs: 40 });
    const controller = new AbortController();
    const response = await fetch(`${harness.url}/api/chat`, { method: 'POST', headers: JSON_TYPE, body: chatBody('talk for long'), signal: controller.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    controller.abort();
    await harness.model.waitForAborted(1);
    await settled(harness);
    expect(harness.test.services.body.getAnimation().contexts).toEqual([]);
    const [path] = (await harness.test.services.history.chat.list({ limit: 10 })).map((item) => item.interface_path);
    const saved = await harness.test.services.history.chat.load(path ?? '');
    expect(saved.map((item) => item.sender_id)).toEqual(['compat-client']);
  });

  it('cancels through the ollama client abort() and while waiting for a stream: false answer', async () => {
    harness = await startCompat();
    harness.model.script({ kind: 'hang' }, { kind: 'hang' });
    const client = new Ollama({ host: harness.url });
    const streaming = client.chat({ model: 'anima', messages: [{ role: 'user', content: 'first' }], stream: true });
    const iterator = await streaming;
    while (harness.model.requests.length < 1) await new Promise((resolve) => setTimeout(resolve, 5));
    iterator.abort();
    await harness.model.waitForAborted(1);
    const controller = new AbortController();
    const waiting = fetch(`${harness.url}/api/chat`, {
      method: 'POST',
      headers: JSON_TYPE,
      body: chatBody('second', { stream: false }),
      signal: controller.signal,
    }).catch(() => 'aborted');
    while (harness.model.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect(await waiting).toBe('aborted');
    await harness.model.waitForAborted(2);
    await settled(harness);
  });

  /** Once the model holds `requests` requests, moves the clock past the silence the answer may keep. */
  const silentFor = async (clock: ManualClock, requests: number, ms: number) => {
    await vi.waitFor(() => expect(harness.model.requests).toHaveLength(requests), { timeout: 10_000 });
    clock.advance(ms);
  };

  it('ends a stalled stream after COMPAT_STREAM_TIMEOUT with a final chunk that says so', async () => {
    const clock = new ManualClock();
    harness = await startCompat({ COMPAT_STREAM_TIMEOUT: '20' }, clock);
    harness.model.script({ kind: 'hang' }, { kind: 'hang' }, { kind: 'hang' });
    const responding = fetch(`${harness.url}/api/chat`, { method: 'POST', headers: JSON_TYPE, body: chatBody('are you there?') });
    await silentFor(clock, 1, 20_000);
    const final = JSON.parse((await (await responding).text()).trim().split('\n').at(-1) ?? '');
    expect(final).toMatchObject({ done: true, done_reason: 'timeout', error: expect.stringContaining('COMPAT_STREAM_TIMEOUT') });
    await harness.model.waitForAborted(1);
    const client = new Ollama({ host: harness.url });
    const ollamaStream = async () => {
      for await (const chunk of await client.chat({ model: 'anima', messages: [{ role: 'user', content: 'again?' }], stream: true })) void chunk;
    };
    const ollamaEnds = expect(ollamaStream()).rejects.toThrow(/COMPAT_STREAM_TIMEOUT/);
    await silentFor(clock, 2, 20_000);
    await ollamaEnds;
    const openai = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: 'x', maxRetries: 0 });
    const openAiStream = async () => {
      for await (const chunk of await openai.chat.completions.create({ model: 'anima', messages: [{ role: 'user', content: 'hello?' }], stream: true }))
        void chunk;
    };
    const openAiEnds = expect(openAiStream()).rejects.toThrow(/COMPAT_STREAM_TIMEOUT/);
    await silentFor(clock, 3, 20_000);
    await openAiEnds;
    await settled(harness);
  });

  it('ends a stream: false answer after COMPAT_COMPLETION_TIMEOUT with done_reason timeout', async () => {
    const clock = new ManualClock();
    harness = await startCompat({ COMPAT_COMPLETION_TIMEOUT: '20' }, clock);
    harness.model.script({ kind: 'hang' });
    const responding = fetch(`${harness.url}/api/generate`, {
      method: 'POST',
      headers: JSON_TYPE,
      body: JSON.stringify({ prompt: 'think hard', stream: false }),
    });
    await silentFor(clock, 1, 20_000);
    const response = await responding;
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      done: true,
      done_reason: 'timeout',
      response: '',
      error: expect.stringContaining('COMPAT_COMPLETION_TIMEOUT'),
    });
    await harness.model.waitForAborted(1);
    await settled(harness);
  });

  it('serves 50 simultaneous streams, each getting exactly one whole answer', async () => {
    harness = await startCompat();
    const texts = Array.from({ length: 50 }, (_, index) => `Answer number ${index} for you.`);
    harness.model.script(...texts.map((text) => ({ kind: 'reply' as const, text, chunkSize: 4, delayMs: 2 })));
    const client = new Ollama({ host: harness.url });
    const received = await Promise.all(
      texts.map(async (_, index) => {
        let text = '';
        let done = 0;
        for await (const chunk of await client.chat({ model: 'anima', messages: [{ role: 'user', content: `question ${index}` }], stream: true })) {
          text += chunk.message.content;
          if (chunk.done) done += 1;
        }
        expect(done).toBe(1);
        return text;
      }),
    );
    expect([...received].sort()).toEqual([...texts].sort());
    await settled(harness);
  });
});
