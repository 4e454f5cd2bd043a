import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { ChatTurn, Memory } from '../../../src/components/contract.ts';
import type { DialectName } from '../../../src/db/schema.ts';
import memoryPlugin from '../../../plugins/memory/index.ts';
import { messageInterface } from '../../fixtures/components/message-interface.ts';
import { record } from '../../fixtures/components/record.ts';
import { fixtureRoots } from '../../helpers/component-roots.ts';
import { describeEachDialect, freshDatabase, type TestDatabase } from '../../helpers/dialects.ts';
import { ManualClock } from '../../helpers/manual-clock.ts';
import { createTestServices, type TestServices } from '../../helpers/services.ts';

const learned = (...memories: Array<{ kind: 'profile' | 'fact'; topic: string; text: string; importance?: number }>) =>
  JSON.stringify({ memories: memories.map((memory) => ({ importance: 0.7, ...memory })) });
const NOTHING = learned();

describeEachDialect('the memory plugin', (dialect: DialectName) => {
  let database: TestDatabase;
  let test: TestServices;

  const clock = new ManualClock();
  const start = async (environment: Record<string, string> = {}) => {
    test = await createTestServices({
      databaseUrl: database.url,
      componentRoots: fixtureRoots,
      clock,
      environment: { CORTEX_ENGINE: 'scripted', MEMORY_ENABLED: 'true', ...environment },
    });
    await test.services.components.loadAll([messageInterface('alpha'), messageInterface('beta'), memoryPlugin], []);
  };
  beforeEach(async () => {
    record.reset();
    database = await freshDatabase(dialect);
  });
  afterEach(async () => {
    await test?.close();
    await database.drop();
  });

  /** Sends a message and waits for its answer; the engine's next answers are `script` (the reply, then the extraction's). */
  const say = async (from: { via: string; id: string; name: string }, text: string, ...script: string[]) => {
    record.script.push(...script);
    const submitted = await test.services.chain.submit({
      interfaceId: from.via,
      interfacePath: `${from.via}/room`,
      text,
      senderId: from.id,
      senderName: from.name,
    });
    if (submitted.status !== 'queued') throw new Error(`not queued: ${submitted.status}`);
    expect((await submitted.done).outcome).toBe('answered');
  };
  /** The system prompt the engine got for the message `text` (extraction requests are told apart by their last turn). */
  const systemPromptFor = (text: string) => {
    const prompt = record.prompts.find((turns: ChatTurn[]) => turns.at(-1)?.content.endsWith(`: ${text}`));
    if (!prompt) throw new Error(`no prompt answered "${text}"`);
    return prompt[0]?.content ?? '';
  };
  const current = (personId?: number): Promise<Memory[]> => test.services.memory.list({ limit: 100, ...(personId === undefined ? {} : { personId }) });
  const until = (check: () => Promise<unknown> | unknown) => vi.waitFor(check, { timeout: 20_000, interval: 20 });
  const sam = { via: 'alpha', id: 's1', name: 'Sam' };
  const samOnBeta = { via: 'beta', id: 'sam-b', name: 'Sam B' };

  it('recalls a fact told on one interface on another once the identities are linked', async () => {
    await start();
    await say(
      sam,
      'My sister Mia got me into the cello.',
      'How lovely!',
      learned(
        { kind: 'profile', topic: 'sister_name', text: "Sam's sister is called Mia" },
        { kind: 'fact', topic: 'instrument', text: 'Sam is learning the cello' },
      ),
    );
    await until(async () => expect(await current()).toHaveLength(2));
    await say(samOnBeta, 'How is my cello going, do you think?', 'No idea yet.', NOTHING);
    expect(systemPromptFor('How is my cello going, do you think?')).not.toContain('learning the cello');

    const [person] = (await test.services.memory.listPeople()).filter((entry) => entry.identities.includes('alpha:s1'));
    await test.services.memory.link('beta:sam-b', person?.id ?? 0);
    await say(samOnBeta, 'Any advice for my cello practice?', 'Practise slowly.', NOTHING);
    const prompt = systemPromptFor('Any advice for my cello practice?');
    expect(prompt).toContain('Memories from earlier conversations');
    expect(prompt).toContain('Sam is learning the cello');
    expect(prompt).toContain("Sam's sister is called Mia");
    expect(await test.services.metrics.text()).toMatch(/anima_stage_seconds_count\{stage="memory_recall"\} [1-9]/);
  });

  it('replaces a contradicted fact and answers with the newer one', async () => {
    await start();
    await say(sam, 'I started the violin.', 'Great!', learned({ kind: 'fact', topic: 'instrument', text: 'Sam is learning the violin' }));
    await until(async () => expect(await current()).toHaveLength(1));
    await say(sam, 'Actually I switched to the cello.', 'Nice switch.', learned({ kind: 'fact', topic: 'instrument', text: 'Sam is learning the cello' }));
    await until(async () => expect((await current()).map((memory) => memory.text)).toEqual(['Sam is learning the cello']));
    const history = await test.services.memory.list({ limit: 10, includeHistory: true });
    expect(history.find((memory) => memory.text === 'Sam is learning the violin')?.superseded_by).toBe(
      history.find((memory) => memory.text === 'Sam is learning the cello')?.id,
    );
    await say(sam, 'Which instrument am I learning?', 'The cello.', NOTHING);
    const prompt = systemPromptFor('Which instrument am I learning?');
    expect(prompt).toContain('Sam is learning the cello');
    expect(prompt).not.toContain('violin');
  });

  it('never brings back a deleted memory', async () => {
    await start();
    await say(sam, 'I have a dog called Rex.', 'Hi Rex!', learned({ kind: 'profile', topic: 'dog', text: 'Sam has a dog called Rex' }));
    await until(async () => expect(await current()).toHaveLength(1));
    const [memory] = await current();
    expect(await test.services.memory.delete(memory?.id ?? 0)).toBe(true);
    await say(sam, 'What is my dog called?', 'I do not know.', NOTHING);
    expect(systemPromptFor('What is my dog called?')).not.toContain('Rex');
    expect(await test.services.memory.list({ limit: 10, includeHistory: true })).toEqual([]);
  });

  it('forgets a person who asks, and learns nothing from that message', async () => {
    await start();
    await say(sam, 'I live in Turin.', 'Lovely city.', learned({ kind: 'profile', topic: 'home', text: 'Sam lives in Turin' }));
    await say({ via: 'alpha', id: 'a2', name: 'Ada' }, 'I live in Oslo.', 'Cold!', learned({ kind: 'profile', topic: 'home', text: 'Ada lives in Oslo' }));
    await until(async () => expect(await current()).toHaveLength(2));
    const asked = record.prompts.length;
    await say(sam, 'Forget me', 'Done, I forgot you.');
    expect(systemPromptFor('Forget me')).toContain('Sam has just asked you to forget them');
    expect(record.prompts).toHaveLength(asked + 1);
    expect((await current()).map((memory) => memory.text)).toEqual(['Ada lives in Oslo']);
  });

  it('keeps the memories in the prompt within MEMORY_PROMPT_BUDGET, pinned first', async () => {
    await start({ MEMORY_PROMPT_BUDGET: '60' });
    const person = await test.services.memory.personFor('alpha:s1', 'Sam');
    for (let index = 0; index < 30; index += 1) {
      await test.services.memory.create({ person_id: person.id, kind: 'profile', text: `Sam collects stamps from country number ${index} of the list` });
    }
    await test.services.memory.create({ person_id: person.id, kind: 'fact', text: 'Sam is allergic to nuts', pinned: true, importance: 0.1 });
    await say(sam, 'Tell me about my stamps.', 'You collect many.', NOTHING);
    const prompt = systemPromptFor('Tell me about my stamps.');
    const section = prompt.slice(prompt.indexOf('Memories from earlier conversations')).split('\n\n')[0] ?? '';
    expect(section.split('\n').length).toBeGreaterThan(1);
    expect(section.length).toBeLessThanOrEqual(60 * 4);
    expect(section.split('\n')[1]).toBe('- Sam is allergic to nuts');
  });

  it('delivers the answer while the extraction is still with the model', async () => {
    await start();
    await say(sam, 'I am baking bread today.', 'Enjoy the baking!', 'hang');
    // The reply is out; the extraction asked the engine after it and has no answer.
    expect(record.delivered.map((action) => action.payload.text)).toEqual(['Enjoy the baking!']);
    await until(() => expect(record.prompts).toHaveLength(2));
    expect(record.prompts[1]?.at(-1)?.content).toBe('Sam: I am baking bread today.\nAnima: Enjoy the baking!');
    expect(await current()).toEqual([]);
  });

  it('drops an unusable extraction answer and goes on learning', async () => {
    await start();
    await say(sam, 'I like jazz.', 'Me too.', 'I think they like jazz!');
    await say(sam, 'And I play the piano.', 'Wonderful.', learned({ kind: 'fact', topic: 'instrument', text: 'Sam plays the piano' }));
    await until(async () => expect((await current()).map((memory) => memory.text)).toEqual(['Sam plays the piano']));
  });

  it('summarises a stretch of MEMORY_EPISODE_MESSAGES messages into an episode of the conversation', async () => {
    await start({ MEMORY_EPISODE_MESSAGES: '4' });
    await say(sam, 'Shall we plan a picnic?', 'Yes! Saturday?', NOTHING);
    await say(
      sam,
      'Saturday at the lake.',
      'Deal.',
      NOTHING,
      JSON.stringify({ summary: 'Sam and Anima planned a picnic at the lake on Saturday.', importance: 0.8 }),
    );
    await until(async () =>
      expect((await current()).map((memory) => [memory.kind, memory.text, memory.source_path])).toEqual([
        ['episode', 'Sam and Anima planned a picnic at the lake on Saturday.', 'alpha/room'],
      ]),
    );
    await say({ via: 'alpha', id: 'a2', name: 'Ada' }, 'What did we plan?', 'A picnic.', NOTHING);
    expect(systemPromptFor('What did we plan?')).toContain('(an earlier conversation here) Sam and Anima planned a picnic at the lake on Saturday.');
  });

  it('summarises a stretch after MEMORY_EPISODE_SILENCE_MINUTES of silence', async () => {
    await start({ MEMORY_EPISODE_SILENCE_MINUTES: '30' });
    await say(sam, 'I finally finished my thesis!', 'Congratulations!', NOTHING);
    await until(() => expect(record.prompts).toHaveLength(2));
    clock.advance(29 * 60_000);
    await say(sam, 'Now I need a holiday.', 'You deserve one.', NOTHING);
    await until(() => expect(record.prompts).toHaveLength(4));
    // Not yet silent for 30 minutes: had the stretch ended, its summary would have found no answer scripted.
    clock.advance(29 * 60_000);
    record.script.push(JSON.stringify({ summary: 'Sam told Anima they finished their thesis.', importance: 0.9 }));
    clock.advance(60_000);
    await until(async () =>
      expect((await current()).map((memory) => [memory.kind, memory.text])).toEqual([['episode', 'Sam told Anima they finished their thesis.']]),
    );
    expect(record.prompts.at(-1)?.at(-1)?.content).toBe(
      'Sam: I finally finished my thesis!\nAnima: Congratulations!\nSam: Now I need a holiday.\nAnima: You deserve one.',
    );
  });

  it('does nothing while MEMORY_ENABLED is off', async () => {
    await start({ MEMORY_ENABLED: 'false' });
    await say(sam, 'I live in Turin.', 'Nice.');
    expect(record.prompts).toHaveLength(1);
    expect(systemPromptFor('I live in Turin.')).not.toContain('Memories');
    expect(await test.services.memory.listPeople()).toEqual([]);
  });
});
