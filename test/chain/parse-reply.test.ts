import { describe, expect, it } from 'vitest';
import { mergeSpeech } from '../../src/chain/dispatch.ts';
import { parseReply } from '../../src/chain/parse-reply.ts';

describe('parseReply', () => {
  it('delivers plain text as one message', () => {
    expect(parseReply('  Hello there!\nHow are you?  ')).toEqual({ actions: [], rejected: [], text: 'Hello there!\nHow are you?' });
  });

  it('reads a bare {"actions": [...]} object', () => {
    const reply = parseReply('{"actions": [{"type": "note", "payload": {"text": "a"}}, {"type": "tts_speak"}]}');
    expect(reply.actions).toEqual([
      { type: 'note', payload: { text: 'a' } },
      { type: 'tts_speak', payload: {} },
    ]);
    expect(reply.text).toBe('');
  });

  it('reads the action object inside a fenced block and keeps the surrounding text as the message', () => {
    const reply = parseReply('Sure!\n```json\n{"actions": [{"type": "note", "payload": {"text": "a"}}]}\n```');
    expect(reply.actions).toEqual([{ type: 'note', payload: { text: 'a' } }]);
    expect(reply.text).toBe('Sure!');
  });

  it('keeps entries that are not {type, payload} objects apart, for the log', () => {
    const reply = parseReply('{"actions": [42, {"payload": {}}, {"type": "note", "payload": {"text": "a"}}]}');
    expect(reply.actions).toHaveLength(1);
    expect(reply.rejected).toEqual([42, { payload: {} }]);
  });

  it('treats JSON without an actions list, and code blocks of other content, as text', () => {
    expect(parseReply('{"answer": 42}').text).toBe('{"answer": 42}');
    expect(parseReply('```js\nconsole.log(1)\n```').actions).toEqual([]);
  });
});

describe('mergeSpeech', () => {
  it('merges the message text of the same conversation into tts_speak and drops the duplicate message', () => {
    const merged = mergeSpeech([
      { type: 'message_echo', payload: { text: 'Hi!', interface_path: 'echo/1' } },
      { type: 'tts_speak', payload: { text: 'Hi!', interface_path: 'echo/1' } },
      { type: 'message_echo', payload: { text: 'Elsewhere', interface_path: 'echo/2' } },
    ]);
    expect(merged).toEqual([
      { type: 'tts_speak', payload: { text: 'Hi!', interface_path: 'echo/1', __merged_text: 'Hi!' } },
      { type: 'message_echo', payload: { text: 'Elsewhere', interface_path: 'echo/2' } },
    ]);
  });
});
