import { describe, expect, it } from 'vitest';
import { linkedSignal } from '../../src/chain/linked-signal.ts';
import { ManualClock } from '../helpers/manual-clock.ts';

describe('linkedSignal', () => {
  it('aborts with the reason of the first source that aborts', () => {
    const first = new AbortController();
    const second = new AbortController();
    const linked = linkedSignal([first.signal, undefined, second.signal]);
    second.abort(new Error('second'));
    first.abort(new Error('first'));
    expect((linked.signal.reason as Error).message).toBe('second');
    linked.dispose();
  });

  it('starts aborted when a source already is, and sets no timer then', () => {
    const gone = AbortSignal.abort(new Error('already'));
    const clock = new ManualClock();
    const linked = linkedSignal([gone], { ms: 10, reason: () => new Error('late'), clock });
    expect((linked.signal.reason as Error).message).toBe('already');
    expect(clock.pending()).toBe(0);
    linked.dispose();
  });

  it('aborts with the deadline’s reason when the time is up, and not a moment before', () => {
    const clock = new ManualClock();
    const linked = linkedSignal([new AbortController().signal], { ms: 20, reason: () => new Error('too slow'), clock });
    clock.advance(19);
    expect(linked.signal.aborted).toBe(false);
    clock.advance(1);
    expect((linked.signal.reason as Error).message).toBe('too slow');
    linked.dispose();
  });

  it('after dispose, neither the sources nor the deadline reach it', () => {
    const clock = new ManualClock();
    const source = new AbortController();
    const linked = linkedSignal([source.signal], { ms: 20, reason: () => new Error('too slow'), clock });
    linked.dispose();
    expect(clock.pending()).toBe(0);
    source.abort();
    clock.advance(40);
    expect(linked.signal.aborted).toBe(false);
  });
});
