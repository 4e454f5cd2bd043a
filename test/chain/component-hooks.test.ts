import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CompletedTurn, definePlugin, type PromptTurn } from '../../src/components/contract.ts';
import { messageInterface } from '../fixtures/components/message-interface.ts';
import { record } from '../fixtures/components/record.ts';
import { fixtureRoots } from '../helpers/component-roots.ts';
import { createTestServices, type TestServices } from '../helpers/services.ts';

/** The two hooks a component has around an answer: context for the message being answered, and word of the answer. */
describe('component hooks around an answer', () => {
  let test: TestServices;
  beforeEach(() => record.reset());
  afterEach(async () => test?.close());

  it('gives promptContext the message being answered and afterReply the delivered answer, without waiting on either failing', async () => {
    const asked: PromptTurn[] = [];
    const told: CompletedTurn[] = [];
    let release: () => void = () => undefined;
    const listener = definePlugin({
      name: 'listener',
      create: () => ({
        promptContext: (turn) => {
          asked.push(turn);
          return `You know ${turn.senderName} likes tea.`;
        },
        afterReply: (turn) => {
          told.push(turn);
          // Held until the test says so: the chain must not wait for it.
          return new Promise<void>((resolve) => (release = resolve));
        },
      }),
    });
    const broken = definePlugin({
      name: 'broken',
      create: () => ({
        afterReply: () => {
          throw new Error('broken on purpose');
        },
      }),
    });
    test = await createTestServices({ componentRoots: fixtureRoots, environment: { CORTEX_ENGINE: 'scripted' } });
    await test.services.components.loadAll([messageInterface('platform'), listener, broken], []);
    record.script.push('Tea it is.');
    const submitted = await test.services.chain.submit({
      interfaceId: 'platform',
      interfacePath: 'platform/room',
      text: 'what should I drink?',
      senderId: 'u7',
      senderName: 'Mia',
    });
    if (submitted.status !== 'queued') throw new Error(`not queued: ${submitted.status}`);
    expect((await submitted.done).outcome).toBe('answered');

    const turn = { interfaceId: 'platform', interfacePath: 'platform/room', senderId: 'u7', senderName: 'Mia', text: 'what should I drink?' };
    expect(asked).toEqual([turn]);
    expect(record.prompts[0]?.[0]?.content).toContain('You know Mia likes tea.');
    await Promise.resolve();
    expect(told).toEqual([{ ...turn, reply: 'Tea it is.', emotions: [] }]);
    expect(record.delivered.at(-1)?.payload.text).toBe('Tea it is.');
    release();
  });
});
