import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IncomingMessageInput } from '../../src/components/messages.ts';
import type { SubmitResult } from '../../src/chain/message-chain.ts';
import { record } from '../fixtures/components/record.ts';
import { fixtureRoots } from '../helpers/component-roots.ts';
import { createTestServices, type TestServices } from '../helpers/services.ts';

describe('message chain: options of interfaces that answer live', () => {
  let test: TestServices;
  const start = async (environment: Record<string, string> = {}) => {
    test = await createTestServices({ componentRoots: fixtureRoots, environment: { CORTEX_ENGINE: 'scripted', ...environment } });
    return test.services.chain;
  };
  /** An anticipated message's verdict, given by hand. */
  const verdict = () => {
    let settle: (kept: boolean) => void = () => undefined;
    const confirmed = new Promise<boolean>((resolve) => (settle = resolve));
    return { confirmed, settle };
  };
  const stored = async () => (await test.services.history.chat.load('echo/1')).map((item) => item.text);
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

  it('answers an anticipated message at once, with it in the prompt, but saves, delivers and animates nothing until it is confirmed', async () => {
    const chain = await start();
    record.script.push('First reply');
    await done(await chain.submit(message('earlier')));
    const delivered = record.delivered.length;
    record.script.push('Kept reply');
    const { confirmed, settle } = verdict();
    const outcome = done(await chain.submit(message('anticipated'), { confirmed }));
    await vi.waitFor(() => expect(record.prompts).toHaveLength(2));
    expect(record.prompts[1]?.slice(1)).toEqual([
      { role: 'user', content: 'u1: earlier' },
      { role: 'assistant', content: 'First reply' },
      { role: 'user', content: 'u1: anticipated' },
    ]);
    // The engine has answered; the answer waits for the verdict, and nothing of the message shows meanwhile.
    await new Promise((resolve) => setImmediate(resolve));
    expect(await stored()).toEqual(['earlier', 'First reply']);
    expect(record.delivered).toHaveLength(delivered);
    expect(test.services.body.getAnimation().state).toBe('idle');

    settle(true);
    expect(await outcome).toMatchObject({ outcome: 'answered' });
    expect(await stored()).toEqual(['earlier', 'First reply', 'anticipated', 'Kept reply']);
    expect(record.delivered.at(-1)?.payload.text).toBe('Kept reply');
  });

  it('withdraws an anticipated message that is not confirmed: the answer stops, nothing is saved or sent, its rate-limit token comes back', async () => {
    const chain = await start({ CHAT_RATE_LIMIT_BURST: '1', CHAT_RATE_LIMIT_PER_MINUTE: '1' });
    record.script.push('hang');
    const { confirmed, settle } = verdict();
    const outcome = done(await chain.submit(message('what time'), { confirmed }));
    await vi.waitFor(() => expect(record.prompts).toHaveLength(1));
    settle(false);
    expect(await outcome).toEqual({ outcome: 'cancelled', delivered: [] });
    expect(await stored()).toEqual([]);
    expect(record.delivered).toEqual([]);
    expect(test.services.body.getAnimation().state).toBe('idle');
    // The withdrawn message cost nothing: the one the speaker meant still fits a burst of one.
    record.script.push('It is noon.');
    expect(await done(await chain.submit(message('what time is it')))).toMatchObject({ outcome: 'answered' });
    expect(await stored()).toEqual(['what time is it', 'It is noon.']);
  });
});
