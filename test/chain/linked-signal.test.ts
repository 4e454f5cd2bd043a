import { describe, expect, it } from 'vitest';
import { linkedSignal } from '../../src/chain/linked-signal.ts';

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
    const linked = linkedSignal([gone], { ms: 10, reason: () => new Error('late') });
    expect((linked.signal.reason as Error).message).toBe('already');
    linked.dispose();
  });

  it('aborts with the deadline’s reason when the time is up', async () => {
    const linked = linkedSignal([new AbortController().signal], { ms: 20, reason: () => new Error('too slow') });
    await new Promise((resolve) => linked.signal.addEventListener('abort', resolve));
    expect((linked.signal.reason as Error).message).toBe('too slow');
    linked.dispose();
  });

  it('after dispose, neither the sources nor the deadline reach it', async () => {
    const source = new AbortController();
    const linked = linkedSignal([source.signal], { ms: 20, reason: () => new Error('too slow') });
    linked.dispose();
    source.abort();
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(linked.signal.aborted).toBe(false);
  });
});
