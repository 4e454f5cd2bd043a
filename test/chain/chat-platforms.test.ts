import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AnimationChange } from '../../src/body/animation-payload.ts';
import { definePlugin } from '../../src/components/contract.ts';
import type { IncomingMessageInput, SubmitResult } from '../../src/components/messages.ts';
import { messageInterface } from '../fixtures/components/message-interface.ts';
import { record } from '../fixtures/components/record.ts';
import { fixtureRoots } from '../helpers/component-roots.ts';
import { createTestServices, type TestServices } from '../helpers/services.ts';

/** What the chain offers every chat platform: groups that sleep until woken, operators by name only, the body's source. */
describe('the message chain on a chat platform', () => {
  let test: TestServices;
  beforeEach(() => record.reset());
  afterEach(async () => test?.close());

  const operatorTool = definePlugin({
    name: 'operator_tool',
    create: () => ({ actions: { restart_everything: { schema: z.object({}), brief: 'Restart.', operatorOnly: true } } }),
  });
  const setup = async (environment: Record<string, string> = {}) => {
    test = await createTestServices({ componentRoots: fixtureRoots, environment: { CORTEX_ENGINE: 'scripted', ...environment } });
    await test.services.components.loadAll([messageInterface('platform', { chatPlatform: true, trainerVariable: 'TELEGRAM_TRAINER_ID' }), operatorTool], []);
  };
  const say = (text: string, extra: Partial<IncomingMessageInput> = {}) =>
    test.services.chain.submit({ interfaceId: 'platform', interfacePath: 'platform/room', text, senderId: 'u1', ...extra });
  const answered = async (result: Promise<SubmitResult>) => {
    const submitted = await result;
    if (submitted.status !== 'queued') throw new Error(`not queued: ${submitted.status}`);
    return submitted.done;
  };
  const lastText = () => record.delivered.at(-1)?.payload.text;

  it('keeps a group asleep until woken: only mentions and replies are answered, and /status says so', async () => {
    await setup({ TRAINER_IDS: 'platform:u1' });
    expect(await say('talking among ourselves', { group: true })).toMatchObject({ status: 'ignored', reason: 'asleep' });
    await answered(say('@anima hello', { group: true, mentioned: true }));
    await answered(say('about your answer', { group: true, replyToSelf: true }));
    await say('/status', { group: true });
    expect(lastText()).toMatch(/^Status: asleep/);
    await say('/wake', { group: true });
    await answered(say('now everyone gets an answer', { group: true }));
    await say('/sleep', { group: true });
    expect(await say('and now nobody', { group: true })).toMatchObject({ status: 'ignored' });
    // A chat with one person is awake by default.
    await answered(say('hi', { interfacePath: 'platform/private' }));
  });

  it('lets nobody operate while no trainer is named, and the platform trainer variable names one', async () => {
    await setup();
    await say('/sleep');
    expect(lastText()).toContain('Only an operator');
    expect(test.services.chain.attention.isAsleep('platform/room')).toBe(false);
    const restart = () =>
      test.services.delivery.deliver(
        { interfaceId: 'platform', interfacePath: 'platform/room', messageId: 'm', senderId: 'u1', metadata: {} },
        { type: 'restart_everything', payload: {} },
      );
    expect(await restart()).toMatchObject({ delivered: false, reason: expect.stringMatching(/operator/) });

    await test.services.config.set('TELEGRAM_TRAINER_ID', 'u1');
    await say('/sleep');
    expect(test.services.chain.attention.isAsleep('platform/room')).toBe(true);
    expect(await restart()).toEqual({ delivered: true });
    await say('/wake', { senderId: 'u2' });
    expect(test.services.chain.attention.isAsleep('platform/room')).toBe(true);
  });

  it('moves the body with the platform as the source of think and write', async () => {
    await setup();
    const changes: AnimationChange[] = [];
    test.services.body.onAnimationStateChanged((change) => changes.push(change));
    await answered(say('hi'));
    expect(changes.filter((change) => change.state !== 'idle').map((change) => [change.state, change.source])).toEqual([
      ['think', 'platform'],
      ['write', 'platform'],
    ]);
  });

  it('lets the person at the web UI operate whoever TRAINER_IDS names, and no one else without a name there', async () => {
    await setup({ TRAINER_IDS: 'platform:u1' });
    await test.services.components.loadAll([messageInterface('desk', { operatorSenders: true }), messageInterface('side')], []);
    const sleep = (interfaceId: string) => test.services.chain.submit({ interfaceId, interfacePath: `${interfaceId}/1`, text: '/sleep', senderId: 'me' });
    await sleep('desk');
    expect(test.services.chain.attention.isAsleep('desk/1')).toBe(true);
    await sleep('side');
    expect(lastText()).toContain('Only an operator');
    expect(test.services.chain.attention.isAsleep('side/1')).toBe(false);
  });
});
