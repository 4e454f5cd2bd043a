import { describe, expect, it } from 'vitest';
import { blockedTermsOf, isBlocked, priorityOf } from '../../src/stream/viewer-priority.ts';

const viewer = (text: string, extra: { mentioned?: boolean; support?: boolean } = {}) => ({
  message: { interfaceId: 'twitch', interfacePath: 'twitch/chan', senderId: '1', text, mentioned: extra.mentioned ?? false },
  ...(extra.support ? { support: true } : {}),
});

describe('stream mode priorities and the word list', () => {
  it('ranks support over mentions over questions over the rest', () => {
    expect([viewer('hype', { support: true }), viewer('hi', { mentioned: true }), viewer('how are you'), viewer('lol')].map(priorityOf)).toEqual([3, 2, 1, 0]);
    expect(priorityOf(viewer('nice stream?'))).toBe(1);
  });

  it('blocks a listed word or phrase in any case as a whole word only', () => {
    const terms = blockedTermsOf(['Ass', 'spoiler alert', '']);
    expect(isBlocked('what an ASS.', terms)).toBe(true);
    expect(isBlocked('a class act', terms)).toBe(false);
    expect(isBlocked('Spoiler Alert: he dies', terms)).toBe(true);
    expect(isBlocked('spoiler alerts are fine', terms)).toBe(false);
    expect(isBlocked('anything', [])).toBe(false);
  });
});
