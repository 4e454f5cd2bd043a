import { describe, expect, it } from 'vitest';
import { FIXTURE_SKINS } from '../helpers/body.ts';
import { useTestApp } from '../helpers/services.ts';

/**
 * Idle is the absence of contexts. A request for idle must never leave a context behind, or the next
 * stop of a real context sees "other contexts still active" and skips its outro and the return to idle.
 */
describe('POST /api/animation_state {state: "idle"}', () => {
  const subject = useTestApp({ environment: { SKINS_DIR: FIXTURE_SKINS } });

  const request = (payload: object) => subject.app.inject({ method: 'POST', url: '/api/animation_state', payload });
  const animation = async () => (await subject.app.inject({ method: 'GET', url: '/api/animation_state' })).json();

  it('records no context, so a later think context ends through its outro and returns to idle', async () => {
    expect((await request({ state: 'idle' })).json()).toEqual({ accepted: true, state: 'idle', context_id: null });
    expect((await animation()).contexts).toEqual([]);
    await request({ state: 'think', context_id: 'm1' });
    subject.harness.services.body.stopAnimation('m1');
    expect(await animation()).toMatchObject({ state: 'think', phase: 'outro', contexts: [] });
  });

  it('ends the contexts it preempts, so they cannot hold a later state open', async () => {
    subject.harness.services.body.registerStatePriority('wave', 0);
    await request({ state: 'wave', context_id: 'gesture' });
    expect((await request({ state: 'idle' })).json()).toEqual({ accepted: true, state: 'idle', context_id: null });
    expect(await animation()).toMatchObject({ state: 'idle', contexts: [] });
    await request({ state: 'think', context_id: 'm1' });
    subject.harness.services.body.stopAnimation('m1');
    expect(await animation()).toMatchObject({ state: 'think', phase: 'outro', contexts: [] });
  });

  it('is still rejected below a higher context, which stays open', async () => {
    await request({ state: 'think', context_id: 'm1' });
    expect((await request({ state: 'idle' })).json()).toEqual({ accepted: false, state: 'think', context_id: null });
    expect((await animation()).contexts).toEqual(['m1']);
  });
});
