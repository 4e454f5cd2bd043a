import { describe, expect, it } from 'vitest';
import { conversationId, splitConversation } from '../../src/compat/conversation.ts';
import { ReplyStream } from '../../src/compat/reply-stream.ts';

const run = (deltas: string[], delivered: string) => {
  const sent: string[] = [];
  const stream = new ReplyStream((text) => sent.push(text));
  for (const delta of deltas) stream.push(delta);
  stream.finish(delivered);
  return sent;
};

describe('ReplyStream', () => {
  it('forwards plain text as it streams, without the leading blank', () => {
    expect(run(['  Hel', 'lo ', 'there'], 'Hello there')).toEqual(['Hel', 'lo ', 'there']);
  });

  it('holds back a reply that opens like an action list, then sends what the chain delivered', () => {
    expect(run(['{"act', 'ions": []}'], 'Done.')).toEqual(['Done.']);
  });

  it('stops at a fence (and a possible one) and sends the rest once the chain has parsed it', () => {
    expect(run(['Sure! `', '``json\n{"actions":[]}\n```'], 'Sure!')).toEqual(['Sure! ']);
    expect(run(['Code: ``', '`js\nx\n```'], 'Code: ```js\nx\n```')).toEqual(['Code: ', '```js\nx\n```']);
  });
});

describe('ReplyStream, however the deltas fall', () => {
  const replies = [
    '  Hello there, this is a longer answer with `inline code` and more words after it.',
    'Here is some code: ```js\nconsole.log(1)\n``` and text after.',
    '\n\n{"actions": [{"type": "note", "payload": {"text": "x"}}]}',
    'Ends with backticks ``',
  ];
  const shownAt = (reply: string, cuts: number[]) => {
    const points = [0, ...cuts, reply.length];
    return run(
      points.slice(1).map((point, index) => reply.slice(points[index], point)),
      '',
    ).join('');
  };

  it('shows the same text for every split of a reply into two or three deltas', () => {
    for (const reply of replies) {
      const whole = shownAt(reply, []);
      for (let cut = 1; cut < reply.length; cut += 1) {
        expect(shownAt(reply, [cut])).toBe(whole);
        expect(shownAt(reply, [cut, Math.min(reply.length, cut + 3)])).toBe(whole);
      }
      // A character a delta: backticks held back across many deltas still make or break a fence.
      const everyCharacter = Array.from({ length: reply.length - 1 }, (_, index) => index + 1);
      expect(shownAt(reply, everyCharacter)).toBe(whole);
    }
    expect(shownAt(replies[0] as string, [])).toBe((replies[0] as string).trimStart());
    expect(shownAt(replies[1] as string, [])).toBe('Here is some code: ');
    expect(shownAt(replies[2] as string, [])).toBe('');
    expect(shownAt(replies[3] as string, [])).toBe('Ends with backticks ');
  });
});

describe('compat conversations', () => {
  it('are named by the header, or by a hash of how they open', () => {
    const opening = [
      { role: 'system', content: 'S' },
      { role: 'user', content: 'hi' },
    ];
    expect(conversationId('desk-1', opening)).toBe('desk-1');
    expect(conversationId(undefined, opening)).toMatch(/^[0-9a-f]{16}$/);
    expect(conversationId(undefined, [...opening, { role: 'assistant', content: 'yo' }, { role: 'user', content: 'more' }])).toBe(
      conversationId(undefined, opening),
    );
    expect(conversationId(undefined, [{ role: 'user', content: 'hi' }])).not.toBe(conversationId(undefined, opening));
  });

  it('keep the newest user message apart and at most maxHistory earlier turns', () => {
    const turns = [
      { role: 'system', content: 'S' },
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'b' },
      { role: 'tool', content: 't' },
      { role: 'user', content: 'c' },
      { role: 'assistant', content: 'prefill' },
    ];
    expect(splitConversation(turns, 20)).toEqual({
      text: 'c',
      history: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
      ],
    });
    expect(splitConversation(turns, 1)?.history).toEqual([{ role: 'assistant', content: 'b' }]);
    expect(splitConversation(turns, 0)?.history).toEqual([]);
    expect(splitConversation([{ role: 'system', content: 'S' }], 20)).toBeUndefined();
  });
});
