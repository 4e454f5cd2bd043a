import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ENGINE_ERROR_NOTICE } from '../../../src/chain/message-chain.ts';
import type { TokenUsage } from '../../../src/components/messages.ts';
import { shippedRoots } from '../../helpers/component-roots.ts';
import { ManualClock } from '../../helpers/manual-clock.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../../helpers/openai-server.ts';
import { createTestServices, type TestServices } from '../../helpers/services.ts';

describe('the openai Cortex engine against an OpenAI-compatible server', () => {
  let fake: FakeOpenAi;
  let test: TestServices;
  let clock: ManualClock;

  beforeAll(async () => {
    fake = await startFakeOpenAi({ apiKey: 'sk-test' });
  });
  afterAll(async () => fake.close());
  afterEach(async () => {
    await test?.close();
    fake.reset();
  });

  const start = async (environment: Record<string, string> = {}) => {
    clock = new ManualClock();
    test = await createTestServices({
      clock,
      componentRoots: shippedRoots,
      environment: { CORTEX_ENGINE: 'openai', OPENAI_BASE_URL: fake.baseUrl, OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'gpt-test', ...environment },
    });
  };
  /** Sends a chat as the integration `tester` and returns what its outbox received. */
  const ask = async (text: string) => {
    const { integrations } = test.services;
    const { chain } = await integrations.ingest({ source: 'tester', type: 'chat', payload: { text }, metadata: {} });
    if (chain?.status !== 'queued') throw new Error(`not queued: ${chain?.status}`);
    const outcome = await chain.done;
    return { outcome, outbox: await integrations.takeOutbox('tester') };
  };

  it('streams the reply over SSE with the model, key and conversation', async () => {
    await start();
    fake.script({ kind: 'reply', text: 'Hello from a streamed answer!', chunkSize: 3 });
    const { outcome, outbox } = await ask('hi there');
    expect(outcome.outcome).toBe('answered');
    expect(outbox.map((message) => message.payload.text)).toEqual(['Hello from a streamed answer!']);
    const [request] = fake.requests;
    expect(request?.headers.authorization).toBe('Bearer sk-test');
    expect(request?.body).toMatchObject({ model: 'gpt-test', stream: true });
    expect(request?.body.messages?.[0]?.role).toBe('system');
    expect(request?.body.messages?.at(-1)).toEqual({ role: 'user', content: 'tester: hi there' });
  });

  it('asks the server for its token counts and hands them to the asker as the server reported them', async () => {
    await start();
    fake.script({ kind: 'reply', text: 'Twelve chars', chunkSize: 4 });
    const counted: TokenUsage[] = [];
    const submitted = await test.services.chain.submit(
      { interfaceId: 'integration', interfacePath: 'integration/tester', text: 'count me', senderId: 'tester' },
      { onUsage: (usage) => counted.push(usage) },
    );
    if (submitted.status !== 'queued') throw new Error(`not queued: ${submitted.status}`);
    await submitted.done;
    expect(fake.requests[0]?.body.stream_options).toEqual({ include_usage: true });
    expect(counted).toEqual([{ promptTokens: 10, completionTokens: 3 }]);
  });

  it('retries a 429 (honouring Retry-After) and a 500, then answers', async () => {
    await start();
    fake.script({ kind: 'status', status: 429, retryAfter: 0 }, { kind: 'status', status: 500, retryAfter: 0 }, { kind: 'reply', text: 'Third time lucky.' });
    const { outbox } = await ask('hi');
    expect(fake.requests).toHaveLength(3);
    expect(outbox.map((message) => message.payload.text)).toEqual(['Third time lucky.']);
  });

  it('gives up after OPENAI_MAX_RETRIES and the user gets a short error message', async () => {
    await start({ OPENAI_MAX_RETRIES: '1' });
    fake.script({ kind: 'status', status: 503, retryAfter: 0 }, { kind: 'status', status: 503, retryAfter: 0 }, { kind: 'reply', text: 'too late' });
    const { outcome, outbox } = await ask('hi');
    expect(outcome.outcome).toBe('error');
    expect(fake.requests).toHaveLength(2);
    expect(outbox.map((message) => message.payload.text)).toEqual([ENGINE_ERROR_NOTICE]);
  });

  it('does not retry a 401 and times out a server that never answers', async () => {
    await start({ OPENAI_API_KEY: 'wrong' });
    expect((await ask('hi')).outcome.outcome).toBe('error');
    expect(fake.requests).toHaveLength(1);
    await test.services.config.set('OPENAI_API_KEY', 'sk-test');
    fake.script({ kind: 'hang' });
    const asked = ask('anyone?');
    await vi.waitFor(() => expect(fake.requests).toHaveLength(2));
    // OPENAI_TIMEOUT_S (60 s) ends the wait for headers, well before the chain's own 120 s deadline.
    clock.advance(60_000);
    const { outcome, outbox } = await asked;
    expect(outcome.outcome).toBe('error');
    expect(outbox.map((message) => message.payload.text)).toEqual([ENGINE_ERROR_NOTICE]);
    expect(test.services.body.getAnimation().contexts).toEqual([]);
  });
});
