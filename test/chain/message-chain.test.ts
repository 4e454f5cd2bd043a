import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IncomingMessageInput } from '../../src/components/messages.ts';
import type { SubmitResult } from '../../src/chain/message-chain.ts';
import { CONTEXT_BUDGET_MS, ENGINE_ERROR_NOTICE } from '../../src/chain/message-chain.ts';
import { NO_ENGINE_NOTICE } from '../../src/chain/cortex-selector.ts';
import type { SpeechRequest } from '../../src/chain/speech.ts';
import { record } from '../fixtures/components/record.ts';
import { fixtureRoots } from '../helpers/component-roots.ts';
import { ManualClock } from '../helpers/manual-clock.ts';
import { createTestServices, type TestServices } from '../helpers/services.ts';

const texts = () => record.delivered.map((item) => item.payload.text);

describe('message chain', () => {
  let test: TestServices;
  let clock: ManualClock;
  const start = async (environment: Record<string, string> = {}) => {
    clock = new ManualClock();
    test = await createTestServices({ componentRoots: fixtureRoots, clock, environment: { CORTEX_ENGINE: 'scripted', ...environment } });
    return test.services.chain;
  };
  const message = (text: string, extra: Partial<IncomingMessageInput> = {}): IncomingMessageInput => ({
    interfaceId: 'echo',
    interfacePath: 'echo/1',
    text,
    senderId: 'u1',
    senderName: 'Sam',
    ...extra,
  });
  const answered = async (result: Promise<SubmitResult>) => {
    const submitted = await result;
    if (submitted.status !== 'queued') throw new Error(`not queued: ${submitted.status}`);
    return submitted.done;
  };

  beforeEach(() => record.reset());
  afterEach(async () => test?.close());

  it('answers with the engine reply as one message, saved as self and seen by the model next time', async () => {
    const chain = await start();
    record.script.push('Hello Sam!', 'Still here.');
    await answered(chain.submit(message('hi')));
    expect(record.delivered).toEqual([{ type: 'message_echo', payload: { text: 'Hello Sam!', interface_path: 'echo/1' } }]);
    await answered(chain.submit(message('are you there?')));
    const second = record.prompts[1] ?? [];
    expect(second.slice(1)).toEqual([
      { role: 'user', content: 'Sam: hi' },
      { role: 'assistant', content: 'Hello Sam!' },
      { role: 'user', content: 'Sam: are you there?' },
    ]);
    const saved = await test.services.history.chat.load('echo/1');
    expect(saved.map((item) => [item.sender_id, item.text])).toEqual([
      ['u1', 'hi'],
      ['self', 'Hello Sam!'],
      ['u1', 'are you there?'],
      ['self', 'Still here.'],
    ]);
  });

  it('hands the answer to an asker that waits for it (awaitsReply), validated, instead of to its interface', async () => {
    const chain = await start();
    record.script.push(
      '{"actions": [{"type": "message_echo", "payload": {"text": "For you.", "interface_path": "echo/1"}}, {"type": "message_echo", "payload": {"text": "For the other chat.", "interface_path": "echo/2"}}, {"type": "message_echo", "payload": {"text": ""}}]}',
    );
    const outcome = await answered(chain.submit(message('hi'), { awaitsReply: true }));
    expect(outcome.delivered).toEqual([{ type: 'message_echo', payload: { text: 'For you.', interface_path: 'echo/1' } }]);
    expect(record.delivered).toEqual([{ type: 'message_echo', payload: { text: 'For the other chat.', interface_path: 'echo/2' } }]);
    expect(outcome.report?.skipped).toEqual([{ type: 'message_echo', reason: 'invalid payload' }]);
    const saved = await test.services.history.chat.load('echo/1');
    expect(saved.map((item) => item.text)).toEqual(['hi', 'For you.']);
  });

  it("hands an asker that waits its notices too: a command's answer and an engine failure", async () => {
    const chain = await start();
    const command = await chain.submit(message('/status'), { awaitsReply: true });
    expect(command).toMatchObject({ status: 'command', delivered: [{ type: 'message_echo', payload: { text: expect.stringMatching(/^Status: awake/) } }] });
    record.script.push(new Error('model down'));
    const failed = await answered(chain.submit(message('hi'), { awaitsReply: true }));
    expect(failed).toMatchObject({ outcome: 'error', delivered: [{ payload: { text: ENGINE_ERROR_NOTICE } }] });
    expect(record.delivered).toEqual([]);
  });

  it("puts the persona (or PROMPT_OVERRIDE) and only the active components' actions in the system prompt", async () => {
    const chain = await start({ PROMPT_OVERRIDE: 'You are a pirate.' });
    await answered(chain.submit(message('hi')));
    const system = record.prompts[0]?.[0]?.content ?? '';
    expect(system.startsWith('You are a pirate.')).toBe(true);
    expect(system).toContain('- message_echo:');
    expect(system).toContain('- note: Write a note.');
    expect(system).toContain('Notes are private.');
    expect(system).not.toContain('message_gated_and');
  });

  it("adds the components' prompt context, and leaves out one that is not ready in time", async () => {
    const chain = await start();
    record.context = 'The recorder is listening.';
    await answered(chain.submit(message('hi')));
    expect(record.prompts[0]?.[0]?.content).toContain('The recorder is listening.');
    record.context = 'hang';
    const answer = answered(chain.submit(message('still there?')));
    await vi.waitFor(() => expect(record.contextAsks).toBe(2), { timeout: 10_000 });
    clock.advance(CONTEXT_BUDGET_MS);
    await answer;
    expect(record.prompts[1]?.[0]?.content).not.toContain('The recorder is listening.');
    expect(texts()).toHaveLength(2);
  });

  it('asks the model without waiting for the save of a message that brings its own history, and keeps the saves in order', async () => {
    const chain = await start();
    const chat = test.services.history.chat;
    const save = chat.save.bind(chat);
    // The user's save is written, but the chain is told it finished only after the answer.
    let release: () => void = () => undefined;
    chat.save = (input) => {
      chat.save = save;
      const written = save(input);
      return new Promise((resolve) => (release = () => resolve(written)));
    };
    record.script.push('Answered while saving.');
    expect(await answered(chain.submit(message('hi', { history: [{ role: 'user', content: 'earlier' }] })))).toMatchObject({ outcome: 'answered' });
    expect(record.prompts[0]?.slice(1)).toEqual([
      { role: 'user', content: 'earlier' },
      { role: 'user', content: 'Sam: hi' },
    ]);
    release();
    const saved = await test.services.history.chat.load('echo/1');
    expect(saved.map((item) => [item.sender_id, item.text])).toEqual([
      ['u1', 'hi'],
      ['self', 'Answered while saving.'],
    ]);
  });

  it('asks the engine first for a message that brings its own history, then saves it and moves the body while the engine answers', async () => {
    const chain = await start();
    const chat = test.services.history.chat;
    const save = chat.save.bind(chat);
    const seen: string[] = [];
    const asked = () => `${record.prompts.length} engine request(s)`;
    let saving: () => void = () => undefined;
    const saveCalled = new Promise<void>((resolve) => (saving = resolve));
    chat.save = (input) => {
      seen.push(`save of "${input.message_text}" after ${asked()}`);
      saving();
      return save(input);
    };
    test.services.body.onAnimationStateChanged((change) => seen.push(`${change.state} after ${asked()}`));
    record.script.push('hang');
    const controller = new AbortController();
    const submitted = await chain.submit(message('hi', { history: [{ role: 'user', content: 'earlier' }] }), { signal: controller.signal });
    await saveCalled;
    expect(seen).toEqual(['save of "hi" after 1 engine request(s)', 'think after 1 engine request(s)', 'write after 1 engine request(s)']);
    controller.abort(new Error('client gone'));
    expect(await answered(Promise.resolve(submitted))).toMatchObject({ outcome: 'cancelled' });
    expect(seen.at(-1)).toBe('idle after 1 engine request(s)');
    expect((await chat.load('echo/1')).map((item) => item.text)).toEqual(['hi']);
    // An engine that answers within the same turn: the message is saved before the reply, and the body
    // still thinks and writes before it idles.
    seen.length = 0;
    record.script.push('At once.');
    await answered(chain.submit(message('again', { history: [] })));
    expect(seen).toEqual([
      'save of "again" after 2 engine request(s)',
      'think after 2 engine request(s)',
      'write after 2 engine request(s)',
      'save of "At once." after 2 engine request(s)',
      'idle after 2 engine request(s)',
    ]);
    seen.length = 0;
    record.script.push(new Error('the model is down'));
    expect(await answered(chain.submit(message('fail', { history: [] })))).toMatchObject({ outcome: 'error' });
    expect(seen).toEqual([
      'save of "fail" after 3 engine request(s)',
      'think after 3 engine request(s)',
      'write after 3 engine request(s)',
      'idle after 3 engine request(s)',
    ]);
  });

  it('runs valid actions and logs and skips unknown, inactive and invalid ones', async () => {
    const chain = await start();
    record.script.push(
      JSON.stringify({
        actions: [
          { type: 'launch_rocket', payload: {} },
          { type: 'message_gated_and', payload: { text: 'x', interface_path: 'gated_and/1' } },
          { type: 'note', payload: { text: '' } },
          { type: 'note', payload: { text: 'forbidden' } },
          { type: 'note', payload: { text: 'remember the milk' } },
          { type: 'message_echo', payload: { text: 'Done.' } },
        ],
      }),
    );
    const outcome = await answered(chain.submit(message('do things')));
    expect(outcome.report?.skipped.map((item) => item.reason)).toEqual([
      'unknown action type',
      'its component gated-and is not loaded',
      'invalid payload',
      'invalid payload',
    ]);
    expect(record.delivered).toEqual([
      { type: 'note', payload: { text: 'remember the milk' } },
      { type: 'message_echo', payload: { text: 'Done.', interface_path: 'echo/1' } },
    ]);
  });

  it('merges tts_speak with the message into one captioned speech and suppresses the duplicate text', async () => {
    const chain = await start();
    const spoken: SpeechRequest[] = [];
    test.services.speech.register({
      speak: async (request) => {
        spoken.push(request);
        return { status: 'success' };
      },
    });
    record.script.push(
      JSON.stringify({
        actions: [
          { type: 'message_echo', payload: { text: 'Good night!' } },
          { type: 'tts_speak', payload: { text: 'Good night!', emotion: 'calm' } },
        ],
      }),
    );
    await answered(chain.submit(message('bye')));
    expect(spoken).toEqual([{ text: 'Good night!', emotion: 'calm', interfacePath: 'echo/1', interfaceId: 'echo', mergedText: 'Good night!' }]);
    expect(record.delivered).toEqual([]);
    expect(record.prompts[0]?.[0]?.content ?? '').toContain('- tts_speak:');
  });

  it('sends the merged text when no speech engine is registered or speech fails', async () => {
    const chain = await start();
    record.script.push(
      JSON.stringify({
        actions: [
          { type: 'message_echo', payload: { text: 'Caption' } },
          { type: 'tts_speak', payload: { text: 'Spoken' } },
        ],
      }),
    );
    await answered(chain.submit(message('speak')));
    expect(texts()).toEqual(['Caption']);
    test.services.speech.register({ speak: async () => ({ status: 'error' }) });
    record.script.push(JSON.stringify({ actions: [{ type: 'tts_speak', payload: { text: 'Only spoken' } }] }));
    await answered(chain.submit(message('speak again')));
    expect(texts()).toEqual(['Caption', 'Only spoken']);
  });

  it('moves the body think → write → idle through one message, or talk with the hint', async () => {
    const chain = await start();
    const states: string[] = [];
    test.services.body.onAnimationStateChanged((change) => states.push(change.state));
    await answered(chain.submit(message('hi')));
    expect(states).toEqual(['think', 'write', 'idle']);
    await answered(chain.submit(message('hi', { hints: { animation: 'talk' } })));
    expect(states.slice(3)).toEqual(['think', 'talk', 'idle']);
  });

  it('sends no animation for an interface that drives its own', async () => {
    const chain = await start();
    const states: string[] = [];
    test.services.body.onAnimationStateChanged((change) => states.push(change.state));
    await answered(chain.submit(message('hi', { interfaceId: 'quiet', interfacePath: 'quiet/1' })));
    expect(states).toEqual([]);
    expect(record.delivered[0]?.type).toBe('message_quiet');
  });

  it('ends the context and sends a short error when the engine fails or times out', async () => {
    const chain = await start({ CORTEX_TIMEOUT_S: '30' });
    const states: string[] = [];
    test.services.body.onAnimationStateChanged((change) => states.push(change.state));
    record.script.push(new Error('model exploded'), 'hang');
    expect((await answered(chain.submit(message('one')))).outcome).toBe('error');
    const hanging = answered(chain.submit(message('two')));
    await vi.waitFor(() => expect(record.prompts).toHaveLength(2), { timeout: 10_000 });
    clock.advance(30_000);
    expect((await hanging).outcome).toBe('error');
    expect(texts()).toEqual([ENGINE_ERROR_NOTICE, ENGINE_ERROR_NOTICE]);
    expect(states).toEqual(['think', 'write', 'idle', 'think', 'write', 'idle']);
    expect(test.services.body.getAnimation().contexts).toEqual([]);
  });

  it('answers with the no-language-model notice when no engine is configured', async () => {
    const chain = await start({ CORTEX_ENGINE: '' });
    expect((await answered(chain.submit(message('hi')))).outcome).toBe('notice');
    expect(texts()).toEqual([NO_ENGINE_NOTICE]);
    expect(test.services.body.getAnimation().state).toBe('idle');
  });

  it('names an unknown CORTEX_ENGINE and the engines that exist in its notice', async () => {
    const chain = await start({ CORTEX_ENGINE: 'gpt4' });
    expect((await answered(chain.submit(message('hi')))).outcome).toBe('notice');
    expect(texts()).toEqual([expect.stringContaining('CORTEX_ENGINE is "gpt4", which names no Cortex engine (the engines that exist: scripted;')]);
  });

  it('answers one conversation in order while others run in parallel', async () => {
    const chain = await start();
    const results = await Promise.all([
      answered(chain.submit(message('1'))),
      answered(chain.submit(message('2'))),
      answered(chain.submit(message('3', { interfacePath: 'echo/2' }))),
    ]);
    expect(results.map((result) => result.outcome)).toEqual(['answered', 'answered', 'answered']);
    expect(record.delivered.filter((item) => item.payload.interface_path === 'echo/1').map((item) => item.payload.text)).toEqual(['re: Sam: 1', 're: Sam: 2']);
    expect(
      record.prompts
        .find((prompt) => prompt.some((turn) => turn.content === 'Sam: 2'))
        ?.slice(1)
        .map((turn) => turn.content),
    ).toEqual(['Sam: 1', 'Sam: 2', 're: Sam: 1']);
  });
});

describe('attention and operators', () => {
  let test: TestServices;
  beforeEach(() => record.reset());
  afterEach(async () => test?.close());

  const setup = async (environment: Record<string, string> = {}) => {
    test = await createTestServices({ componentRoots: fixtureRoots, environment: { CORTEX_ENGINE: 'scripted', ...environment } });
    return test.services.chain;
  };
  const say = (text: string, extra: Partial<IncomingMessageInput> = {}) =>
    test.services.chain.submit({ interfaceId: 'echo', interfacePath: 'echo/group', text, senderId: 'u1', ...extra });

  it('sleeps on /sleep (answering only mentions and replies) and wakes on /wake or /awake', async () => {
    await setup();
    expect(await say('/sleep')).toMatchObject({ status: 'command', command: 'sleep' });
    expect(await say('anyone?')).toMatchObject({ status: 'ignored', reason: 'asleep' });
    const mention = await say('@anima hello', { mentioned: true });
    expect(mention.status).toBe('queued');
    if (mention.status === 'queued') await mention.done;
    const reply = await say('answering you', { replyToSelf: true });
    if (reply.status === 'queued') await reply.done;
    expect(reply.status).toBe('queued');
    expect((await say('/status')).status).toBe('command');
    expect(texts().at(-1)).toContain('asleep');
    await say('/awake');
    const awake = await say('hello?');
    expect(awake.status).toBe('queued');
    if (awake.status === 'queued') await awake.done;
    await say('/status@anima_bot');
    expect(texts().at(-1)).toContain('awake');
    expect(test.services.chain.attention.isAsleep('echo/other')).toBe(false);
  });

  it('understands the configured sleep and wake phrases', async () => {
    await setup({ CHAT_SLEEP_COMMANDS: 'go to bed, shush', CHAT_WAKE_COMMANDS: 'rise and shine' });
    expect(await say('Go to bed!')).toMatchObject({ status: 'command', command: 'sleep' });
    expect(test.services.chain.attention.isAsleep('echo/group')).toBe(true);
    expect(await say('rise and shine')).toMatchObject({ status: 'command', command: 'wake' });
    expect(test.services.chain.attention.isAsleep('echo/group')).toBe(false);
  });

  it('lets only TRAINER_IDS change the attention once operators are named', async () => {
    await setup({ TRAINER_IDS: 'echo:boss' });
    await say('/sleep', { senderId: 'u1' });
    expect(test.services.chain.attention.isAsleep('echo/group')).toBe(false);
    expect(texts().at(-1)).toContain('Only an operator');
    await say('/sleep', { senderId: 'boss' });
    expect(test.services.chain.attention.isAsleep('echo/group')).toBe(true);
  });

  it('does not count attention commands against the limit, but refuses every message of a sender over it before reading it', async () => {
    await setup({ CHAT_RATE_LIMIT_BURST: '2', CHAT_RATE_LIMIT_PER_MINUTE: '1' });
    for (let index = 0; index < 3; index += 1) expect((await say('/status')).status).toBe('command');
    for (const text of ['one', 'two']) {
      const queued = await say(text);
      if (queued.status !== 'queued') throw new Error(`not queued: ${queued.status}`);
      await queued.done;
    }
    expect(await say('/sleep')).toMatchObject({ status: 'rate_limited' });
    expect(test.services.chain.attention.isAsleep('echo/group')).toBe(false);
    // The longest text a message may carry, and one the old command check took seconds over.
    expect(await say(`a${' '.repeat(99_998)}b`)).toMatchObject({ status: 'rate_limited' });
  });

  it('limits each user to the burst, then the per-minute rate; other users and trainers are not affected', async () => {
    await setup({ CHAT_RATE_LIMIT_BURST: '3', CHAT_RATE_LIMIT_PER_MINUTE: '6', TRAINER_IDS: 'echo:boss' });
    const statuses: string[] = [];
    for (let index = 0; index < 4; index += 1) statuses.push((await say(`m${index}`, { interfacePath: `echo/${index}` })).status);
    expect(statuses).toEqual(['queued', 'queued', 'queued', 'rate_limited']);
    const limited = await say('again', { interfacePath: 'echo/9' });
    expect(limited).toMatchObject({ status: 'rate_limited' });
    if (limited.status === 'rate_limited') expect(limited.retryAfterMs).toBeGreaterThan(5_000);
    expect((await say('me too', { senderId: 'u2', interfacePath: 'echo/8' })).status).toBe('queued');
    for (let index = 0; index < 5; index += 1)
      expect((await say(`boss ${index}`, { senderId: 'boss', interfacePath: `echo/b${index}` })).status).toBe('queued');
  });
});
