import { describe, expect, it } from 'vitest';
import { describeMedia, mentions, relationsOf, withoutReplyFallback } from '../../../interface/matrix/incoming.ts';

const me = '@anima:example.org';

describe('reading a matrix message', () => {
  it('finds a mention in m.mentions when the message has them, else the user id or display name as a word', () => {
    expect(mentions({ body: 'hi', 'm.mentions': { user_ids: [me] } }, me, 'Anima')).toBe(true);
    // Intentional mentions decide alone: a name in the text of a message that has them is no mention.
    expect(mentions({ body: 'Anima is great', 'm.mentions': { user_ids: [] } }, me, 'Anima')).toBe(false);
    expect(mentions({ body: 'hey anima, look' }, me, 'Anima')).toBe(true);
    expect(mentions({ body: `${me}: look` }, me, 'Anima')).toBe(true);
    expect(mentions({ body: 'animated talk' }, me, 'Anima')).toBe(false);
    expect(mentions({ body: 'a (b) [c]' }, me, '(b)')).toBe(true);
  });

  it('reads the thread, the real reply target and an edit from m.relates_to', () => {
    expect(relationsOf({ 'm.relates_to': { rel_type: 'm.thread', event_id: '$root', is_falling_back: true, 'm.in_reply_to': { event_id: '$last' } } })).toEqual(
      {
        threadRoot: '$root',
        edit: false,
      },
    );
    expect(relationsOf({ 'm.relates_to': { rel_type: 'm.thread', event_id: '$root', is_falling_back: false, 'm.in_reply_to': { event_id: '$x' } } })).toEqual({
      threadRoot: '$root',
      replyTo: '$x',
      edit: false,
    });
    expect(relationsOf({ 'm.relates_to': { 'm.in_reply_to': { event_id: '$x' } } })).toEqual({ replyTo: '$x', edit: false });
    expect(relationsOf({ 'm.relates_to': { rel_type: 'm.replace', event_id: '$x' } })).toEqual({ edit: true });
  });

  it('drops the quoted fallback of a reply', () => {
    expect(withoutReplyFallback('> <@a:b> first line\n> second\n\nmy answer')).toBe('my answer');
    expect(withoutReplyFallback('no quote here')).toBe('no quote here');
  });

  it('describes a file with its name, type, size, address and caption', () => {
    expect(describeMedia('picture', { body: 'a cat', filename: 'cat.jpg', url: 'mxc://s/1', info: { mimetype: 'image/jpeg', size: 3 * 1024 * 1024 } })).toBe(
      '[picture "cat.jpg" (image/jpeg, 3.0 MB, mxc://s/1)] a cat',
    );
    expect(describeMedia('file', { body: 'notes.txt' })).toBe('[file "notes.txt"]');
  });
});
