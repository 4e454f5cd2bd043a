import { describe, expect, it } from 'vitest';
import { StreamedReply } from '../../src/chat/streamed-reply.ts';

/** The deltas a reply sends when the model writes `pieces`. */
function deltas(pieces: string[]): string[] {
  const sent: string[] = [];
  const reply = new StreamedReply({ delta: (text) => sent.push(text), speech: () => undefined });
  for (const piece of pieces) reply.push(piece);
  reply.end();
  return sent;
}

describe('StreamedReply', () => {
  it('streams plain text, leading spaces included once it starts', () => {
    expect(deltas(['  ', 'Hel', 'lo.'])).toEqual(['  Hel', 'lo.']);
  });

  it('sends nothing for action JSON or a reply that starts with a code fence', () => {
    expect(deltas([' {"actions"', ': []}'])).toEqual([]);
    expect(deltas(['[1]'])).toEqual([]);
    expect(deltas(['``', '`json\n{}```'])).toEqual([]);
  });

  it('stops at a fenced action block after a plain sentence, even one split across pieces', () => {
    expect(deltas(['Sure thing. `', '``json\n{"actions": []}\n```'])).toEqual(['Sure thing. ']);
    expect(deltas(['Sure thing. ', '```json\n{"actions": []}\n```'])).toEqual(['Sure thing. ']);
  });

  it('sends backticks that open no fence with the next piece, or at the end', () => {
    expect(deltas(['Use `', 'npm`', ' here `'])).toEqual(['Use ', '`npm', '` here ', '`']);
  });
});
