import { describe, expect, it } from 'vitest';
import { type Action, type IncomingMessageInput, type SpokenReplyOptions, type SubmitOptions, submitWithVoice } from '../../src/components/contract.ts';

const PATH = 'chat/1';
const message: IncomingMessageInput = { interfaceId: 'chat', interfacePath: PATH, text: 'hello', senderId: 'sam', senderName: 'Sam' };
const says = (text: string, extra: Record<string, unknown> = {}): Action => ({ type: 'message_chat', payload: { text, interface_path: PATH, ...extra } });

/** A chain that answers each message with `answer`, and the calls of everything around it. */
function setup(answer: Action[], options: { canSpeak?: boolean; speechFails?: boolean } = {}) {
  const submitted: Array<[IncomingMessageInput, SubmitOptions | undefined]> = [];
  const spoken: string[] = [];
  const sent: Array<[string, string]> = [];
  const activity: boolean[] = [];
  const reply: SpokenReplyOptions = {
    chain: {
      submit: async (input, submitOptions) => {
        submitted.push([input, submitOptions]);
        return { status: 'queued', messageId: 'm1', done: Promise.resolve({ outcome: 'answered', delivered: submitOptions?.awaitsReply ? answer : [] }) };
      },
    },
    voice: {
      canSpeak: options.canSpeak ?? true,
      speak: async (path, text) => {
        expect(path).toBe(PATH);
        spoken.push(text);
        return !options.speechFails;
      },
    },
    logger: { warn: () => undefined },
    send: async (action, messageId) => void sent.push([String(action.payload.text), messageId]),
    whileAnswering: (answered, isSpoken) => void answered.then(() => activity.push(isSpoken)),
  };
  const settled = () => expect.poll(() => activity).toHaveLength(1);
  return { reply, submitted, spoken, sent, activity, settled };
}

describe('submitWithVoice, the spoken answers of every chat platform', () => {
  it('takes the answer of a voice message while Vox is on: plain texts spoken, a file or buttons sent as written', async () => {
    const run = setup([says('Good morning.'), says('A picture.', { media: 'https://example.org/a.png' }), says('Tea?', { buttons: [[{ text: 'Tea' }]] })]);
    await submitWithVoice(run.reply, message, true);
    await run.settled();
    expect(run.submitted).toEqual([[{ ...message, hints: { animation: 'talk' } }, { awaitsReply: true }]]);
    expect(run.spoken).toEqual(['Good morning.']);
    expect(run.sent).toEqual([
      ['A picture.', 'm1'],
      ['Tea?', 'm1'],
    ]);
    expect(run.activity).toEqual([true]);
  });

  it('writes a text Vox could not speak', async () => {
    const run = setup([says('Good morning.')], { speechFails: true });
    await submitWithVoice(run.reply, message, true);
    await run.settled();
    expect(run.sent).toEqual([['Good morning.', 'm1']]);
  });

  it('leaves the answer to the chain for a written message, and for a voice message while Vox is off', async () => {
    const cases: Array<[viaVoice: boolean, canSpeak: boolean]> = [
      [false, true],
      [true, false],
    ];
    for (const [viaVoice, canSpeak] of cases) {
      const run = setup([says('Hello.')], { canSpeak });
      await submitWithVoice(run.reply, message, viaVoice);
      await run.settled();
      expect(run.submitted).toEqual([[message, {}]]);
      expect([run.spoken, run.sent, run.activity]).toEqual([[], [], [false]]);
    }
  });
});
