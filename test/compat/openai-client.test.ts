import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startCompat, type CompatHarness } from '../helpers/compat.ts';

describe('the compat port with the official openai client', () => {
  let harness: CompatHarness;
  let client: OpenAI;
  const open = async (environment: Record<string, string> = {}) => {
    harness = await startCompat(environment);
    client = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: 'unused-on-loopback', maxRetries: 0 });
  };
  afterEach(async () => harness?.close());

  it('streams a chat completion as server-sent events with usage', async () => {
    await open();
    harness.model.script({ kind: 'reply', text: 'Streaming to OpenAI clients.', chunkSize: 6 });
    const stream = await client.chat.completions.create({
      model: 'anima',
      messages: [
        { role: 'system', content: 'Be nice.' },
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      ],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('Streaming to OpenAI clients.');
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks.at(-1)?.usage).toEqual({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
    expect(harness.model.requests[0]?.body.messages?.at(-1)).toEqual({ role: 'user', content: 'hi' });
  });

  it('answers a chat completion without streaming', async () => {
    await open();
    harness.model.script({ kind: 'reply', text: 'One completion.' });
    const completion = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    expect(completion).toMatchObject({
      object: 'chat.completion',
      model: 'gpt-4o',
      choices: [{ index: 0, message: { role: 'assistant', content: 'One completion.' }, finish_reason: 'stop' }],
    });
    expect(completion.usage?.prompt_tokens).toBe(10);
  });

  it('lists and retrieves models', async () => {
    await open();
    const ids = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual(['anima:latest', 'anima/manual:latest', 'anima/openai:latest']);
    expect(await client.models.retrieve('anima')).toMatchObject({ id: 'anima:latest', object: 'model', owned_by: 'anima' });
    await expect(client.models.retrieve('nope')).rejects.toMatchObject({ status: 404 });
  });

  it('raises OpenAI-shaped errors for bad input', async () => {
    await open();
    const bad = client.chat.completions.create({ model: 'anima', messages: [] });
    await expect(bad).rejects.toMatchObject({ status: 400, type: 'invalid_request_error', message: expect.stringContaining('messages') });
  });
});
