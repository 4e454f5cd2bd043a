import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildApp, type App } from '../../../src/app.ts';
import type { VrmAnimationMessage, VrmFaceMessage } from '../../../src/body/messages.ts';
import emotionPlugin from '../../../plugins/emotion/index.ts';
import { messageInterface } from '../../fixtures/components/message-interface.ts';
import { record } from '../../fixtures/components/record.ts';
import { FIXTURE_SKINS, RecordingTransport } from '../../helpers/body.ts';
import { fixtureRoots } from '../../helpers/component-roots.ts';
import { ManualClock } from '../../helpers/manual-clock.ts';
import { createTestServices, type TestServices } from '../../helpers/services.ts';

/** The emotion plugin with the real chain, body and HTTP app; the fixture skin's persona: happy -> Joy 0.8, speeds 1 and 0.5. */
describe('emotion tags through the chain', () => {
  let test: TestServices;
  let app: App;
  let clock: ManualClock;
  let transport: RecordingTransport;

  beforeEach(async () => {
    record.reset();
    clock = new ManualClock();
    test = await createTestServices({
      componentRoots: fixtureRoots,
      clock,
      environment: { CORTEX_ENGINE: 'scripted', SKINS_DIR: FIXTURE_SKINS, ACTIVE_VOX_ENGINE: 'disabled' },
    });
    await test.services.components.loadAll([messageInterface('platform'), emotionPlugin], []);
    transport = new RecordingTransport();
    test.services.body.addTransport(transport);
    app = await buildApp(test.services);
  });
  afterEach(async () => {
    await app?.close();
    await test?.close();
  });

  const ask = async (text: string) => {
    const submitted = await test.services.chain.submit({ interfaceId: 'platform', interfacePath: 'platform/room', text, senderId: 'u1', senderName: 'Ann' });
    if (submitted.status !== 'queued') throw new Error(`not queued: ${submitted.status}`);
    expect((await submitted.done).outcome).toBe('answered');
  };
  const emotionState = async () => (await app.inject({ method: 'GET', url: '/api/emotion_state' })).json();
  const expressions = () => transport.messages().filter((message) => message.type.startsWith('vrm_expression'));

  it('takes the tag out of the chat and the history, shows the expression until the cooldown, and lets happy fade to rest', async () => {
    record.script.push('[em_happy] Hello there!');
    await ask('hi');
    expect(record.prompts[0]?.[0]?.content).toContain('[em_happy]');
    expect(record.delivered.map((action) => action.payload.text)).toEqual(['Hello there!']);
    const history = await test.services.history.chat.load('platform/room');
    expect(history.map((message) => message.text)).toEqual(['hi', 'Hello there!']);

    await vi.waitFor(() => expect(expressions()).toEqual([{ type: 'vrm_expression_set', name: 'happy', intensity: 1 }]));
    clock.advance(1000);
    expect(await emotionState()).toMatchObject({ dominant: 'happy', values: { happy: expect.any(Number) }, blendshapes: { Joy: expect.any(Number) } });
    // Runtime emotions ride along with the next animation command.
    test.services.body.transitionTo('talk', { contextId: 'speech' });
    const talk = transport.messages('vrm_animation').at(-1) as VrmAnimationMessage;
    expect(talk.animation_state?.emotions).toMatchObject({ dominant: 'happy' });
    test.services.body.stopAnimation('speech');

    clock.advance(2999);
    expect(expressions()).toHaveLength(1);
    clock.advance(1);
    expect(expressions().at(-1)).toEqual({ type: 'vrm_expression_clear' });

    clock.advance(30_000);
    expect(await emotionState()).toMatchObject({ values: {}, dominant: null, blendshapes: { Joy: 0 } });
    const faces = transport.messages('vrm_face') as VrmFaceMessage[];
    expect(Math.max(...faces.map((face) => face.values.Joy ?? 0))).toBeGreaterThan(0.5);
    expect(faces.at(-1)?.values).toEqual({ Joy: 0 });
  });

  it("feeds a tts_speak emotion and keeps a tag out of the voice's words and the chat", async () => {
    record.script.push(JSON.stringify({ actions: [{ type: 'tts_speak', payload: { text: '[em_happy:0.5] So glad!', emotion: 'happy' } }] }));
    await ask('news?');
    // Without a voice engine the words reach the chat as text, without the tag.
    expect(record.delivered.map((action) => action.payload.text)).toEqual(['So glad!']);
    // What the chain hands to the voice (Vox registers in this slot) has no tag either.
    const spoken: Array<{ text: string; emotion: string | undefined }> = [];
    test.services.speech.register({
      speak: async ({ text, emotion }) => {
        spoken.push({ text, emotion });
        return { status: 'success' };
      },
    });
    record.script.push(JSON.stringify({ actions: [{ type: 'tts_speak', payload: { text: 'Yes [em_happy:0.5] indeed.', emotion: 'happy' } }] }));
    await ask('really?');
    expect(spoken).toEqual([{ text: 'Yes indeed.', emotion: 'happy' }]);
    expect((await test.services.history.chat.load('platform/room')).map((message) => message.text)).toEqual(['news?', 'So glad!', 'really?', 'Yes indeed.']);
    await vi.waitFor(() => expect(expressions()).toEqual([{ type: 'vrm_expression_set', name: 'happy', intensity: 0.5 }]));
    clock.advance(2000);
    expect((await emotionState()).values.happy).toBeGreaterThan(0.5);
  });

  it('strips a tag the persona does not know and shows nothing for it', async () => {
    record.script.push('Fine. [em_furious:0.9] Really.');
    await ask('ok?');
    expect(record.delivered.map((action) => action.payload.text)).toEqual(['Fine. Really.']);
    record.script.push('[em_happy:0.3] Better.');
    await ask('and now?');
    await vi.waitFor(() => expect(expressions()).toHaveLength(1));
    expect(expressions()).toEqual([{ type: 'vrm_expression_set', name: 'happy', intensity: 0.3 }]);
    clock.advance(500);
    expect(Object.keys((await emotionState()).values)).toEqual(['happy']);
  });
});
