import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import memoryPlugin from '../../../plugins/memory/index.ts';
import { messageInterface } from '../../fixtures/components/message-interface.ts';
import { record } from '../../fixtures/components/record.ts';
import { shippedRoots } from '../../helpers/component-roots.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../../helpers/openai-server.ts';
import { createTestServices, type TestServices } from '../../helpers/services.ts';

/** The memory plugin with the shipped `openai` engine, against a local server of the OpenAI protocol. */
describe('memory with an OpenAI-compatible model', () => {
  let fake: FakeOpenAi;
  let test: TestServices | undefined;

  const start = async (environment: Record<string, string> = {}) => {
    test = await createTestServices({
      componentRoots: { cortex: shippedRoots.cortex },
      environment: { CORTEX_ENGINE: 'openai', OPENAI_BASE_URL: fake.baseUrl, OPENAI_MODEL: 'fake-model', MEMORY_ENABLED: 'true', ...environment },
    });
    await test.services.components.loadAll([messageInterface('alpha'), memoryPlugin], []);
    return test.services;
  };
  const say = async (text: string) => {
    const submitted = await test?.services.chain.submit({ interfaceId: 'alpha', interfacePath: 'alpha/room', text, senderId: 's1', senderName: 'Sam' });
    if (submitted?.status !== 'queued') throw new Error(`not queued: ${submitted?.status}`);
    expect((await submitted.done).outcome).toBe('answered');
  };
  const until = (check: () => Promise<unknown> | unknown) => vi.waitFor(check, { timeout: 20_000, interval: 20 });
  const chatRequests = () => fake.requests.filter((request) => request.path === '/v1/chat/completions');

  beforeEach(async () => {
    record.reset();
    fake = await startFakeOpenAi();
  });
  afterEach(async () => {
    await test?.close();
    test = undefined;
    await fake.close();
  });

  it('asks for the memories with a strict JSON schema after the reply, and keeps what comes back', async () => {
    const services = await start();
    fake.script(
      { kind: 'reply', text: 'Say hi to Mia!' },
      { kind: 'reply', text: JSON.stringify({ memories: [{ kind: 'profile', topic: 'sister_name', text: "Sam's sister is called Mia", importance: 0.8 }] }) },
    );
    await say('My sister Mia says hi.');
    await until(async () => expect((await services.memory.list({ limit: 10 })).map((memory) => memory.text)).toEqual(["Sam's sister is called Mia"]));
    const extraction = chatRequests()[1]?.body;
    expect(extraction?.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'memories', strict: true, schema: { type: 'object', required: ['memories'], additionalProperties: false } },
    });
    expect(extraction?.messages?.at(-1)?.content).toBe('Sam: My sister Mia says hi.\nAnima: Say hi to Mia!');
  });

  it('delivers the answer while the model still holds the extraction request', async () => {
    const services = await start();
    fake.script({ kind: 'reply', text: 'Enjoy the baking!' }, { kind: 'hang' });
    await say('I am baking bread today.');
    expect(record.delivered.map((action) => action.payload.text)).toEqual(['Enjoy the baking!']);
    await until(() => expect(chatRequests()).toHaveLength(2));
    expect(await services.memory.list({ limit: 10 })).toEqual([]);
    // Held until the server stops: stopping Anima ends the request it is waiting on.
    await test?.close();
    test = undefined;
    await fake.waitForAborted(1);
  });

  it('recalls by meaning through MEMORY_EMBEDDINGS_MODEL what no word of the message matches', async () => {
    const services = await start({ MEMORY_EMBEDDINGS_MODEL: 'fake-embeddings' });
    fake.embed = (text) => (/cello/i.test(text) ? [1, 0, 0] : [0, 1, 0]);
    fake.script(
      { kind: 'reply', text: 'Wonderful!' },
      { kind: 'reply', text: JSON.stringify({ memories: [{ kind: 'fact', topic: 'instrument', text: 'Sam takes violoncello lessons', importance: 0.7 }] }) },
      { kind: 'reply', text: 'They sound great.' },
    );
    await say('I started violoncello lessons.');
    await until(() =>
      expect(fake.requests.filter((request) => request.path === '/v1/embeddings').map((request) => request.body.input)).toContainEqual([
        'Sam takes violoncello lessons',
      ]),
    );
    await say('How are my cello lessons?');
    expect(chatRequests()[2]?.body.messages?.[0]?.content).toContain('Sam takes violoncello lessons');
    expect(fake.requests.find((request) => request.path === '/v1/embeddings')?.body.model).toBe('fake-embeddings');
    expect((await services.memory.list({ q: 'cello', limit: 5 })).map((memory) => memory.text)).toEqual([]);
  });
});
