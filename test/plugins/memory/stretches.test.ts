import { describe, expect, it } from 'vitest';
import { type FinishedStretch, Stretches } from '../../../plugins/memory/stretches.ts';
import { ManualClock } from '../../helpers/manual-clock.ts';

const limits = { messages: 4, silenceMs: 60_000 };

function stretchesOnAClock() {
  const clock = new ManualClock();
  const finished: FinishedStretch[] = [];
  return { clock, finished, stretches: new Stretches(clock, (stretch) => finished.push(stretch)) };
}

describe('stretches of conversation', () => {
  it('ends a stretch after its number of messages, with its one person', () => {
    const { finished, stretches } = stretchesOnAClock();
    stretches.add('a/1', { personId: 7, lines: ['Sam: hi', 'Anima: hello'] }, limits);
    expect(finished).toEqual([]);
    stretches.add('a/1', { personId: 7, lines: ['Sam: bye', 'Anima: bye'] }, limits);
    expect(finished).toEqual([{ path: 'a/1', lines: ['Sam: hi', 'Anima: hello', 'Sam: bye', 'Anima: bye'], personId: 7 }]);
  });

  it('ends a stretch once it has been silent long enough, and names no person when several talked', () => {
    const { clock, finished, stretches } = stretchesOnAClock();
    stretches.add('group/1', { personId: 1, lines: ['Ann: hi'] }, limits);
    clock.advance(50_000);
    stretches.add('group/1', { personId: 2, lines: ['Bob: hi'] }, limits);
    clock.advance(59_000);
    expect(finished).toEqual([]);
    clock.advance(1000);
    expect(finished).toEqual([{ path: 'group/1', lines: ['Ann: hi', 'Bob: hi'], personId: null }]);
    expect(clock.pending()).toBe(0);
  });

  it('drops what is open of a person who asked to be forgotten, and everything when it stops', () => {
    const { clock, finished, stretches } = stretchesOnAClock();
    stretches.add('dm/3', { personId: 3, lines: ['Cy: my secret'] }, limits);
    stretches.add('dm/4', { personId: 4, lines: ['Di: hello'] }, limits);
    stretches.forget(3);
    expect(clock.pending()).toBe(1);
    stretches.stop();
    clock.advance(limits.silenceMs);
    expect(finished).toEqual([]);
  });
});
