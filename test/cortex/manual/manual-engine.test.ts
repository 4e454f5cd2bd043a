import { describe, expect, it } from 'vitest';
import { PendingPrompts } from '../../../cortex/manual/pending-prompts.ts';
import { shippedRoots } from '../../helpers/component-roots.ts';
import { useTestApp } from '../../helpers/services.ts';

const question = (signal = new AbortController().signal) => ({
  interfacePath: 'telegram_bot/42',
  messages: [
    { role: 'system' as const, content: 'You are Anima.' },
    { role: 'user' as const, content: 'Ann: is it raining?' },
  ],
  message: { senderId: '7', senderName: 'Ann', text: 'is it raining?' },
  signal,
});

describe('the manual engine: prompts waiting for the operator', () => {
  it('lists who asked, where and what, and resolves the asker with the answer', async () => {
    const prompts = new PendingPrompts();
    const answered = prompts.ask(question());
    const [prompt] = prompts.list();
    expect(prompt).toMatchObject({
      interface_path: 'telegram_bot/42',
      sender: { id: '7', name: 'Ann' },
      text: 'is it raining?',
      messages: [{ role: 'system' }, { role: 'user', content: 'Ann: is it raining?' }],
    });
    expect(prompts.answer(prompt?.id ?? '', 'Not yet.')).toBe(true);
    await expect(answered).resolves.toBe('Not yet.');
    expect(prompts.list()).toEqual([]);
    expect(prompts.answer(prompt?.id ?? '', 'Twice?')).toBe(false);
  });

  it('drops a prompt whose asker stopped waiting, so its answer finds nothing', async () => {
    const prompts = new PendingPrompts();
    const asker = new AbortController();
    const answered = prompts.ask(question(asker.signal));
    const id = prompts.list()[0]?.id ?? '';
    asker.abort(new Error('the client went away'));
    await expect(answered).rejects.toThrow('the client went away');
    expect(prompts.list()).toEqual([]);
    expect(prompts.answer(id, 'Too late')).toBe(false);
  });
});

describe('the manual engine behind the chain', () => {
  const subject = useTestApp({ componentRoots: shippedRoots, environment: { CORTEX_ENGINE: 'manual' } });

  it('shows the sender and the words of the message the chain is answering, and refuses a blank answer', async () => {
    const sent = await subject.app.inject({
      method: 'POST',
      url: '/api/integrations/messages',
      payload: { source: 'desk', type: 'chat', payload: { text: 'any news?' }, metadata: { user_id: 'u-9', username: 'Bea' } },
    });
    expect(sent.statusCode).toBe(202);
    const pending = async (): Promise<Array<{ id: string }>> => (await subject.app.inject({ method: 'GET', url: '/api/cortex/manual/pending' })).json().pending;
    await expect.poll(async () => (await pending()).length).toBe(1);
    const [prompt] = await pending();
    expect(prompt).toMatchObject({ interface_path: 'integration/desk', sender: { id: 'u-9', name: 'Bea' }, text: 'any news?' });
    const blank = await subject.app.inject({ method: 'POST', url: '/api/cortex/manual/answer', payload: { id: prompt?.id, text: '  \n ' } });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error.code).toBe('invalid_request');
    expect(await pending()).toHaveLength(1);
    const answered = await subject.app.inject({ method: 'POST', url: '/api/cortex/manual/answer', payload: { id: prompt?.id, text: 'All quiet.' } });
    expect(answered.json()).toEqual({ answered: true, id: prompt?.id });
  });
});
