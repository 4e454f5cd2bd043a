import { describe, expect, it } from 'vitest';
import { conversationOf, pathOf } from '../../../interface/matrix/paths.ts';

describe('matrix interface paths', () => {
  it('names a room matrix/<room_id> and a thread matrix/<room_id>/<thread_root_event_id>, and reads them back', () => {
    const room = { roomId: '!OGEhHVWSdvArJzumhm:matrix.org' };
    const thread = { roomId: '!OGEhHVWSdvArJzumhm:matrix.org', threadRoot: '$143273582443PhrSn:example.org' };
    expect(pathOf(room)).toBe('matrix/!OGEhHVWSdvArJzumhm:matrix.org');
    expect(pathOf(thread)).toBe('matrix/!OGEhHVWSdvArJzumhm:matrix.org/$143273582443PhrSn:example.org');
    expect(conversationOf(pathOf(room))).toEqual(room);
    expect(conversationOf(pathOf(thread))).toEqual(thread);
  });

  it('takes a thread root with a slash (room version 3 event ids are standard base64)', () => {
    expect(conversationOf('matrix/!a:b.org/$acR1l0raoZnm60CBwAVgqbZqoO/mYU81xysh1u7XcJk')).toEqual({
      roomId: '!a:b.org',
      threadRoot: '$acR1l0raoZnm60CBwAVgqbZqoO/mYU81xysh1u7XcJk',
    });
  });

  it('refuses what is not a Matrix room', () => {
    for (const path of ['matrix/', 'matrix/room', 'matrix/!noserver', 'telegram_bot/12', 'matrix/!a:b/not-an-event', 'matrix/!a:b/$x y']) {
      expect(conversationOf(path)).toBeUndefined();
    }
  });
});
