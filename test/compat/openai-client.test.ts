import OpenAI, { APIError, BadRequestError, NotFoundError } from 'openai';
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
    const completion = await client.chat.completions.create({ model: 'anima', messages: [{ role: 'user', content: 'hi' }] });
    expect(completion).toMatchObject({
      object: 'chat.completion',
      model: 'anima',
      choices: [{ index: 0, message: { role: 'assistant', content: 'One completion.' }, finish_reason: 'stop' }],
    });
    // As the provider counted them: one token per 4-character chunk of the 15-character answer.
    expect(completion.usage).toEqual({ prompt_tokens: 10, completion_tokens: 4, total_tokens: 14 });
  });

  it('sends the usage chunk for include_usage, estimated when the engine counts nothing, and none without it', async () => {
    await open();
    harness.model.script({ kind: 'reply', text: 'Nobody counts these.', reportsUsage: false }, { kind: 'reply', text: 'Nor these.', reportsUsage: false });
    const counted = [];
    const request = { model: 'anima', messages: [{ role: 'user' as const, content: 'count for me' }], stream: true as const };
    for await (const chunk of await client.chat.completions.create({ ...request, stream_options: { include_usage: true } })) counted.push(chunk);
    expect(counted.at(-1)).toMatchObject({ object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 } });
    expect(counted.slice(0, -1).every((chunk) => chunk.usage === undefined && chunk.choices.length === 1)).toBe(true);
    const plain = [];
    for await (const chunk of await client.chat.completions.create(request)) plain.push(chunk);
    expect(plain.every((chunk) => chunk.usage === undefined && chunk.choices.length === 1)).toBe(true);
    expect(plain.at(-1)?.choices[0]?.finish_reason).toBe('stop');
  });

  it("answers an unknown model with OpenAI's 404 model_not_found, streaming or not, and asks no model", async () => {
    await open();
    // The body exactly as OpenAI sends it; the client keeps it as `error`.
    const notFound = {
      status: 404,
      error: {
        message: 'The model `gpt-4o` does not exist or you do not have access to it.',
        type: 'invalid_request_error',
        param: null,
        code: 'model_not_found',
      },
    };
    const messages = [{ role: 'user' as const, content: 'hi' }];
    const single = client.chat.completions.create({ model: 'gpt-4o', messages });
    await expect(single).rejects.toBeInstanceOf(NotFoundError);
    await expect(single).rejects.toMatchObject(notFound);
    await expect(client.chat.completions.create({ model: 'gpt-4o', messages, stream: true })).rejects.toMatchObject(notFound);
    const retrieved = client.models.retrieve('gpt-4o');
    await expect(retrieved).rejects.toBeInstanceOf(NotFoundError);
    await expect(retrieved).rejects.toMatchObject(notFound);
    expect(harness.model.requests).toHaveLength(0);
  });

  it('refuses a message over the chain limit with 400 string_above_max_length, and a body over APP_BODY_LIMIT_BYTES with 413', async () => {
    await open();
    const parts = [
      { type: 'text' as const, text: 'x'.repeat(60_000) },
      { type: 'text' as const, text: 'y'.repeat(60_000) },
    ];
    const long = client.chat.completions.create({
      model: 'anima',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: parts },
      ],
    });
    await expect(long).rejects.toBeInstanceOf(BadRequestError);
    await expect(long).rejects.toMatchObject({
      status: 400,
      error: {
        message: "Invalid 'messages[1].content': string too long. Expected a string with maximum length 100000, but got a string with length 120000 instead.",
        type: 'invalid_request_error',
        param: 'messages[1].content',
        code: 'string_above_max_length',
      },
    });
    const tooLarge = client.chat.completions.create({ model: 'anima', messages: [{ role: 'user', content: 'x'.repeat(1_100_000) }] });
    await expect(tooLarge).rejects.toBeInstanceOf(APIError);
    await expect(tooLarge).rejects.toMatchObject({ status: 413, type: 'invalid_request_error', message: expect.stringContaining('at most 1048576 bytes') });
    const badModel = client.chat.completions.create({ model: 'm'.repeat(300), messages: [{ role: 'user', content: 'hi' }] });
    await expect(badModel).rejects.toMatchObject({ status: 400, code: 'string_above_max_length', param: 'model' });
    expect(harness.model.requests).toHaveLength(0);
  });

  it('lists and retrieves models', async () => {
    await open();
    const ids = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual(['anima:latest', 'anima/manual:latest', 'anima/openai:latest']);
    expect(await client.models.retrieve('anima')).toMatchObject({ id: 'anima:latest', object: 'model', owned_by: 'anima' });
    await expect(client.models.retrieve('nope')).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
  });

  it('raises OpenAI-shaped errors for bad input', async () => {
    await open();
    const bad = client.chat.completions.create({ model: 'anima', messages: [] });
    await expect(bad).rejects.toMatchObject({ status: 400, type: 'invalid_request_error', message: expect.stringContaining('messages') });
  });
});
