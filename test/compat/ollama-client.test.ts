import { Ollama } from 'ollama';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startCompat, settled, type CompatHarness } from '../helpers/compat.ts';

describe('the compat port with the official ollama client', () => {
  let harness: CompatHarness;
  let client: Ollama;
  const open = async (environment: Record<string, string> = {}) => {
    harness = await startCompat(environment);
    client = new Ollama({ host: harness.url });
  };
  afterEach(async () => harness?.close());

  it('streams a chat answer as chunks, then a final chunk with durations and token counts', async () => {
    await open();
    harness.model.script({ kind: 'reply', text: 'Hello there, friend.', chunkSize: 5 });
    const chunks = [];
    for await (const chunk of await client.chat({ model: 'anima', messages: [{ role: 'user', content: 'hi' }], stream: true })) chunks.push(chunk);
    const final = chunks.at(-1);
    expect(
      chunks
        .slice(0, -1)
        .map((chunk) => chunk.message.content)
        .join(''),
    ).toBe('Hello there, friend.');
    expect(chunks.slice(0, -1).every((chunk) => chunk.done === false && chunk.model === 'anima')).toBe(true);
    expect(final).toMatchObject({
      model: 'anima',
      done: true,
      done_reason: 'stop',
      message: { role: 'assistant', content: '' },
      prompt_eval_count: 10,
      eval_count: 4,
    });
    expect(final?.total_duration).toBeGreaterThan(0);
    expect(final?.eval_duration).toBeGreaterThanOrEqual(0);
    expect(final?.total_duration).toBeGreaterThanOrEqual((final?.prompt_eval_duration ?? 0) + (final?.eval_duration ?? 0));
    expect(final?.total_duration).toBeLessThan(10e9);
  });

  it('runs an action reply through the chain and streams only the text it delivers; the body thinks, writes, then idles', async () => {
    await open();
    const transitions = vi.spyOn(harness.test.services.body, 'transitionTo');
    const stops = vi.spyOn(harness.test.services.body, 'stopAnimation');
    harness.model.script({
      kind: 'reply',
      text: JSON.stringify({
        actions: [
          { type: 'write_diary', payload: { text: 'Met a client.', tags: [] } },
          { type: 'message_compat', payload: { text: 'Noted!' } },
        ],
      }),
    });
    let text = '';
    for await (const chunk of await client.chat({ model: 'anima', messages: [{ role: 'user', content: 'remember me' }], stream: true }))
      text += chunk.message.content;
    expect(text).toBe('Noted!');
    expect((await harness.test.services.history.diary.list({ limit: 5 })).map((entry) => entry.text)).toEqual(['Met a client.']);
    expect(transitions.mock.calls.map((call) => call[0])).toEqual(['think', 'write']);
    expect(stops).toHaveBeenCalledTimes(1);
  });

  it('answers stream: false with one object holding the whole reply', async () => {
    await open();
    harness.model.script({ kind: 'reply', text: 'All in one go.' });
    const response = await client.chat({ model: 'anima:latest', messages: [{ role: 'user', content: 'hi' }], stream: false });
    expect(response).toMatchObject({ model: 'anima:latest', done: true, done_reason: 'stop', message: { role: 'assistant', content: 'All in one go.' } });
    expect(response.total_duration).toBeGreaterThan(0);
    // As the provider counted them: 10 for the prompt, one per 4-character chunk of the 14-character answer.
    expect([response.prompt_eval_count, response.eval_count]).toEqual([10, 4]);
    const generated = await client.generate({ model: 'anima', prompt: 'hi', stream: false });
    expect([generated.prompt_eval_count, generated.eval_count]).toEqual([10, 7]);
  });

  it('estimates the token counts, four characters a token, when the engine reports none', async () => {
    await open();
    harness.model.script(
      { kind: 'reply', text: 'Counted by nobody.', reportsUsage: false },
      { kind: 'reply', text: 'Nor this one, streamed.', reportsUsage: false },
    );
    const messages = [
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'first answer' },
      { role: 'user', content: 'and now?' },
    ];
    const single = await client.chat({ model: 'anima', messages, stream: false });
    // The conversation sent: 14 + 12 + 8 = 34 characters; the answer 18.
    expect([single.prompt_eval_count, single.eval_count]).toEqual([9, 5]);
    const chunks = [];
    for await (const chunk of await client.chat({ model: 'anima', messages: [{ role: 'user', content: 'go' }], stream: true })) chunks.push(chunk);
    expect(chunks.at(-1)).toMatchObject({ done: true, prompt_eval_count: 1, eval_count: 6 });
  });

  it('generates from a prompt, streaming and not', async () => {
    await open();
    harness.model.script({ kind: 'reply', text: 'Blue, because of Rayleigh scattering.' }, { kind: 'reply', text: 'Short.' });
    let text = '';
    for await (const chunk of await client.generate({ model: 'anima', prompt: 'Why is the sky blue?', stream: true })) text += chunk.response;
    expect(text).toBe('Blue, because of Rayleigh scattering.');
    const single = await client.generate({ model: 'anima', prompt: 'Again, shortly', stream: false });
    expect(single).toMatchObject({ response: 'Short.', done: true, done_reason: 'stop', context: [] });
    expect(harness.model.requests[0]?.body.messages?.at(-1)).toEqual({ role: 'user', content: 'Why is the sky blue?' });
  });

  it('sends the client conversation, trimmed to COMPAT_MAX_HISTORY, and records it under compat/<conversation>', async () => {
    await open({ COMPAT_MAX_HISTORY: '2' });
    const messages = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'uno' },
      { role: 'user', content: 'two' },
      { role: 'assistant', content: 'dos' },
      { role: 'user', content: 'three' },
    ];
    await client.chat({ model: 'anima', messages, stream: false });
    const sent = harness.model.requests[0]?.body.messages ?? [];
    expect(sent[0]?.role).toBe('system');
    expect(sent[0]?.content).toContain('This conversation is compat/');
    expect(sent.slice(1)).toEqual([
      { role: 'user', content: 'two' },
      { role: 'assistant', content: 'dos' },
      { role: 'user', content: 'three' },
    ]);
    await settled(harness);
    const path = /This conversation is (compat\/[0-9a-f]{16})\./.exec(sent[0]?.content ?? '')?.[1] ?? '';
    const saved = await harness.test.services.history.chat.load(path);
    expect(saved.map((item) => [item.sender_id, item.text])).toEqual([
      ['compat-client', 'three'],
      ['self', 'Hello from the fake model.'],
    ]);
  });

  it('keeps a conversation on one path from one request to the next, and separates another opening', async () => {
    await open();
    const path = (index: number) => /This conversation is (compat\/\S+)\./.exec(harness.model.requests[index]?.body.messages?.[0]?.content ?? '')?.[1];
    await client.chat({ model: 'anima', messages: [{ role: 'user', content: 'hi' }] });
    await client.chat({
      model: 'anima',
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'Hello!' },
        { role: 'user', content: 'how are you?' },
      ],
    });
    await client.chat({ model: 'anima', messages: [{ role: 'user', content: 'something else' }] });
    const named = new Ollama({ host: harness.url, headers: { 'X-Anima-Conversation': 'desk-1' } });
    await named.chat({ model: 'anima', messages: [{ role: 'user', content: 'hi' }] });
    expect(path(0)).toBe(path(1));
    expect(path(2)).not.toBe(path(0));
    expect(path(3)).toBe('compat/desk-1');
  });

  it('lists the default model and one model per loaded chat engine; show, ps and version answer', async () => {
    await open({ COMPAT_DEFAULT_MODEL: 'companion', COMPAT_DEFAULT_MODEL_DISPLAY: 'My Companion' });
    const { models } = await client.list();
    expect(models.map((model) => [model.name, model.model])).toEqual([
      ['companion:latest', 'companion:latest'],
      ['anima/manual:latest', 'anima/manual:latest'],
      ['anima/openai:latest', 'anima/openai:latest'],
    ]);
    expect(models[0]).toMatchObject({ size: 0, digest: expect.stringMatching(/^[0-9a-f]{64}$/), details: { family: 'anima' } });
    const shown = await client.show({ model: 'companion' });
    expect(shown).toMatchObject({
      details: { family: 'anima' },
      capabilities: ['completion'],
      template: expect.any(String),
      model_info: { 'general.basename': 'My Companion' },
    });
    expect((await client.ps()).models.map((model) => [model.name, model.model])).toEqual(models.map((model) => [model.name, model.name]));
    expect((await client.version()).version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("answers an unknown model with Ollama's 404 on chat, generate and show, and asks no model", async () => {
    await open();
    const notFound = { name: 'ResponseError', status_code: 404, error: "model 'llama3.2:1b' not found" };
    await expect(client.chat({ model: 'llama3.2:1b', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject(notFound);
    await expect(client.chat({ model: 'llama3.2:1b', messages: [{ role: 'user', content: 'hi' }], stream: true })).rejects.toMatchObject(notFound);
    await expect(client.generate({ model: 'llama3.2:1b', prompt: 'hi' })).rejects.toMatchObject(notFound);
    await expect(client.show({ model: 'llama3.2:1b' })).rejects.toMatchObject(notFound);
    // Names match as Ollama matches them: without the tag, in any case, or by the label.
    expect((await client.show({ model: 'ANIMA' })).details.family).toBe('anima');
    expect((await client.chat({ model: 'Anima', messages: [{ role: 'user', content: 'hi' }] })).model).toBe('Anima');
    expect(harness.model.requests).toHaveLength(1);
  });

  it('refuses a message over the chain limit with 400 naming the field and the limit, and a body over APP_BODY_LIMIT_BYTES with 413', async () => {
    await open();
    const long = 'x'.repeat(500_000);
    await expect(client.chat({ model: 'anima', messages: [{ role: 'user', content: long }] })).rejects.toMatchObject({
      status_code: 400,
      error: 'invalid request: messages[0].content is too long: 500000 characters, at most 100000',
    });
    await expect(client.generate({ model: 'anima', prompt: long })).rejects.toMatchObject({
      status_code: 400,
      error: expect.stringContaining('prompt is too long'),
    });
    const oversized = { model: 'anima', messages: [{ role: 'user', content: 'x'.repeat(1_100_000) }] };
    await expect(client.chat(oversized)).rejects.toMatchObject({ status_code: 413 });
    const raw = await fetch(`${harness.url}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(oversized) });
    expect([raw.status, await raw.json()]).toEqual([413, { error: 'Request body is too large: at most 1048576 bytes (APP_BODY_LIMIT_BYTES)' }]);
    expect(harness.model.requests).toHaveLength(0);
  });

  it('answers a request naming an engine with that engine, its tokens estimated when the engine counts none', async () => {
    await open();
    const manual = client.chat({ model: 'anima/manual', messages: [{ role: 'user', content: 'who answers?' }] });
    let pending: Array<{ id: string }> = [];
    const manualEngine = harness.test.services.components.engine('manual') as unknown as {
      routes: Array<{ path: string; handle(input: unknown): { body: { pending: Array<{ id: string }> } } }>;
    };
    while (pending.length === 0) {
      pending = manualEngine.routes[0]?.handle({ query: {}, body: {} }).body.pending ?? [];
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await manualEngine.routes[1]?.handle({ query: {}, body: { id: pending[0]?.id, text: 'The operator.' } });
    const answered = await manual;
    expect(answered.message.content).toBe('The operator.');
    // The manual engine counts nothing: estimated from 'who answers?' and 'The operator.'.
    expect([answered.prompt_eval_count, answered.eval_count]).toEqual([3, 4]);
    expect(harness.model.requests).toHaveLength(0);
  });

  it('answers an empty message list like a model load, and keep_alive 0 like an unload', async () => {
    await open();
    expect(await client.chat({ model: 'anima', messages: [], keep_alive: '5m' })).toMatchObject({ done: true, done_reason: 'load', message: { content: '' } });
    expect(await client.chat({ model: 'anima', messages: [], keep_alive: 0 })).toMatchObject({ done: true, done_reason: 'unload' });
    expect(await client.generate({ model: 'anima', prompt: '', keep_alive: '0s' })).toMatchObject({ done: true, done_reason: 'unload', response: '' });
    expect(harness.model.requests).toHaveLength(0);
  });
});
