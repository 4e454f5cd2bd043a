import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IncomingMessageInput } from '../../src/components/messages.ts';
import type { SubmitResult } from '../../src/chain/message-chain.ts';
import { record } from '../fixtures/components/record.ts';
import { fixtureRoots } from '../helpers/component-roots.ts';
import { createTestServices, type TestServices } from '../helpers/services.ts';

describe('message chain: options of interfaces that answer live', () => {
  let test: TestServices;
  const start = async () => {
    test = await createTestServices({ componentRoots: fixtureRoots, environment: { CORTEX_ENGINE: 'scripted' } });
    return test.services.chain;
  };
  const message = (text: string, extra: Partial<IncomingMessageInput> = {}): IncomingMessageInput => ({
    interfaceId: 'echo',
    interfacePath: 'echo/1',
    text,
    senderId: 'u1',
    ...extra,
  });
  const done = (result: SubmitResult) => {
    if (result.status !== 'queued') throw new Error(`not queued: ${result.status}`);
    return result.done;
  };

  beforeEach(() => record.reset());
  afterEach(async () => test?.close());

  it('hands the engine deltas to onDelta as they stream', async () => {
    const chain = await start();
    record.script.push('Hello there');
    const deltas: string[] = [];
    await done(await chain.submit(message('hi'), { onDelta: (delta) => deltas.push(delta) }));
    expect(deltas).toEqual(['Hel', 'lo there']);
  });

  it('cancels on the asker signal: the answer stops and no notice is sent', async () => {
    const chain = await start();
    record.script.push('hang');
    const controller = new AbortController();
    const submitted = await chain.submit(message('wait'), { signal: controller.signal });
    while (record.prompts.length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
    controller.abort(new Error('client gone'));
    expect(await done(submitted)).toEqual({ outcome: 'cancelled', delivered: [] });
    expect(record.delivered).toEqual([]);
  });

  it('builds the prompt from the history the message carries instead of the stored one', async () => {
    const chain = await start();
    await done(await chain.submit(message('stored')));
    await done(
      await chain.submit(
        message('now', {
          history: [
            { role: 'user', content: 'earlier' },
            { role: 'assistant', content: 'reply' },
          ],
        }),
      ),
    );
    expect(record.prompts[1]?.slice(1)).toEqual([
      { role: 'user', content: 'earlier' },
      { role: 'assistant', content: 'reply' },
      { role: 'user', content: 'now' },
    ]);
  });
});
