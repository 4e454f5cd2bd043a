import { describe, expect, it } from 'vitest';
import { ROTATION_MAX_MS, ROTATION_MIN_MS, WATCHDOG_INTERVAL_MS } from '../../src/body/animation-machine.ts';
import type { VrmAnimationMessage } from '../../src/body/messages.ts';
import { UnknownStateError } from '../../src/body/states.ts';
import { createTestBody } from '../helpers/body.ts';

function lastAnimation(messages: unknown[]): VrmAnimationMessage {
  return messages.filter((message) => (message as { type: string }).type === 'vrm_animation').at(-1) as VrmAnimationMessage;
}

describe('state machine: the states-and-transitions table', () => {
  it('starts in idle on the first idle variant in alphabetical order', async () => {
    const { body, transport } = await createTestBody();
    expect(body.getAnimation()).toMatchObject({ state: 'idle', file: 'Happy Idle.fbx', loop: true });
    expect(transport.animations()).toEqual(['Happy Idle.fbx']);
    body.stop();
  });

  it('any -> think on a new message: broadcasts the command after preloading up to 3 idle variants', async () => {
    const { body, transport } = await createTestBody({ sessions: ['s1'] });
    transport.clear();
    const result = body.transitionTo('think', { contextId: 'm1' });
    expect(result).toEqual({ accepted: true, state: 'think', context_id: 'm1' });
    expect(transport.deliveries.map((delivery) => [delivery.message.type, delivery.to])).toEqual([
      ['preload_animation', null],
      ['preload_animation', null],
      ['preload_animation', null],
      ['vrm_animation', null],
    ]);
    expect(transport.messages('preload_animation').map((message) => (message as { animation: string }).animation)).toEqual([
      '/skins/default/animations/idle/Happy%20Idle.fbx',
      '/skins/default/animations/idle/Idle.fbx',
      '/skins/default/animations/idle/Idle2.fbx',
    ]);
    expect(lastAnimation(transport.messages())).toMatchObject({ state: 'think', file: '/skins/default/animations/think/Thinking.fbx', loop: true });
    body.stop();
  });

  it('preloads idle variants only once per session, and to a session that joins later', async () => {
    const { body, transport } = await createTestBody({ sessions: ['s1'] });
    body.transitionTo('think', { contextId: 'm1' });
    body.stopAnimation('m1');
    transport.clear();
    transport.sessions = ['s1', 's2'];
    body.transitionTo('write', { contextId: 'm2' });
    const preloads = transport.deliveries.filter((delivery) => delivery.message.type === 'preload_animation');
    expect(preloads.map((delivery) => delivery.to)).toEqual(['s2', 's2', 's2']);
    body.stop();
  });

  it('think -> write (or talk on an override hint) when generation starts in the same context', async () => {
    const { body, transport } = await createTestBody();
    body.transitionTo('think', { contextId: 'm1' });
    expect(body.transitionTo('write', { contextId: 'm1' })).toEqual({ accepted: true, state: 'write', context_id: 'm1' });
    expect(lastAnimation(transport.messages()).state).toBe('write');
    body.transitionTo('think', { contextId: 'm2' });
    expect(body.transitionTo('talk', { contextId: 'm2' })).toMatchObject({ accepted: true, state: 'talk' });
    body.stop();
  });

  it('write or talk -> idle when the generation ends through context cleanup', async () => {
    const { body } = await createTestBody();
    body.transitionTo('think', { contextId: 'm1' });
    body.transitionTo('write', { contextId: 'm1' });
    expect(body.stopAnimation('m1')).toBe(true);
    expect(body.getAnimation()).toMatchObject({ state: 'idle', contexts: [] });
    body.stop();
  });

  it('any -> requested state when the priority is not lower: the context is recorded and the rotation cancelled', async () => {
    const { body, clock, transport } = await createTestBody();
    expect(body.transitionTo('think', { contextId: 'w' })).toMatchObject({ accepted: true, state: 'think' });
    expect(body.getAnimation().contexts).toEqual(['w']);
    transport.clear();
    clock.advance(ROTATION_MAX_MS * 2);
    expect(transport.animations()).toEqual([]);
    body.stop();
  });

  it('generates a context id when the caller gives none', async () => {
    const { body } = await createTestBody();
    const result = body.transitionTo('write');
    expect(result.context_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.getAnimation().contexts).toEqual([result.context_id]);
    body.stop();
  });

  it('silently rejects a play of lower priority, leaving the state unchanged', async () => {
    const { body, transport } = await createTestBody();
    body.transitionTo('think', { contextId: 'm1' });
    transport.clear();
    expect(body.playAnimation('write', true, { contextId: 'other' })).toEqual({ accepted: false, state: 'think', context_id: 'other' });
    expect(body.transitionTo('idle')).toEqual({ accepted: false, state: 'think', context_id: null });
    expect(transport.deliveries).toEqual([]);
    expect(body.getAnimation()).toMatchObject({ state: 'think', contexts: ['m1'] });
    body.stop();
  });

  it('lets a request of equal priority preempt the active one', async () => {
    const { body } = await createTestBody();
    body.registerStatePriority('wave', 3);
    body.transitionTo('write', { contextId: 'a' });
    expect(body.playAnimation('wave', true, { contextId: 'b' })).toMatchObject({ accepted: true, state: 'wave' });
    expect(body.getAnimation()).toMatchObject({ state: 'wave', file: 'Wave.fbx', contexts: ['a', 'b'] });
    body.stop();
  });

  it('stop_animation with other contexts still active ends only that context', async () => {
    const { body, transport } = await createTestBody();
    body.transitionTo('think', { contextId: 'a' });
    body.transitionTo('think', { contextId: 'b' });
    transport.clear();
    body.stopAnimation('a');
    expect(body.getAnimation()).toMatchObject({ state: 'think', contexts: ['b'] });
    expect(transport.deliveries).toEqual([]);
    body.stop();
  });

  it('stop_animation of the last context without an outro returns to idle immediately', async () => {
    const { body, transport } = await createTestBody();
    body.transitionTo('write', { contextId: 'a' });
    transport.clear();
    body.stopAnimation('a');
    expect(body.getAnimation().state).toBe('idle');
    expect(transport.animations()).toEqual(['Idle.fbx']);
    body.stop();
  });

  it('stop_animation of the last context with an outro sends the outro, waits its frames / fps, then goes idle', async () => {
    const { body, clock, transport } = await createTestBody();
    body.transitionTo('think', { contextId: 'a' });
    transport.clear();
    body.stopAnimation('a');
    const outro = lastAnimation(transport.messages());
    expect(outro).toMatchObject({ state: 'think', loop: false, animation_state: { phase: 'outro' } });
    clock.advance(499);
    expect(body.getAnimation()).toMatchObject({ state: 'think', phase: 'outro' });
    clock.advance(1);
    expect(body.getAnimation().state).toBe('idle');
    body.stop();
  });

  it('a new request during the outro wait takes over at once', async () => {
    const { body, clock, randoms } = await createTestBody();
    body.transitionTo('think', { contextId: 'a' });
    body.stopAnimation('a');
    randoms.push(0.9);
    body.transitionTo('write', { contextId: 'b' });
    clock.advance(10_000);
    expect(body.getAnimation()).toMatchObject({ state: 'write', contexts: ['b'] });
    body.stop();
  });

  it('a non-looping clip ends on the client completion event and rotation restarts', async () => {
    const { body, clock, transport } = await createTestBody();
    // A single play (loop false): a held talk would play its clip again (test/body/held-states.test.ts).
    body.playAnimation('talk', false, { contextId: 't' });
    expect(body.getAnimation()).toMatchObject({ state: 'talk', loop: false });
    expect(body.completeAnimation('/skins/default/animations/write/Texting.fbx', 'talk')).toBe(false);
    expect(body.completeAnimation('/skins/default/animations/talk/talking.fbx', 'talk')).toBe(true);
    expect(body.getAnimation()).toMatchObject({ state: 'idle', contexts: [] });
    transport.clear();
    clock.advance(ROTATION_MIN_MS);
    expect(transport.animations()).toHaveLength(1);
    body.stop();
  });

  it('a non-looping clip ends on the fallback timer: its section frames / fps plus 1.5 s', async () => {
    const { body, clock } = await createTestBody();
    body.playAnimation('talk', false, { contextId: 't' });
    clock.advance(3499);
    expect(body.getAnimation().state).toBe('talk');
    clock.advance(1);
    expect(body.getAnimation().state).toBe('idle');
    body.stop();
  });

  it('the fallback timer is 3 s plus 1.5 s for a clip without descriptor', async () => {
    const { body, clock } = await createTestBody();
    body.registerStatePriority('wave', 1);
    body.playAnimation('wave', false);
    clock.advance(4499);
    expect(body.getAnimation().state).toBe('wave');
    clock.advance(1);
    expect(body.getAnimation().state).toBe('idle');
    body.stop();
  });

  it('an intro+outro clip without loop plays once through its structure, then idles', async () => {
    const { body, clock } = await createTestBody();
    body.registerStatePriority('bow', 2);
    body.transitionTo('bow');
    expect(body.getAnimation()).toMatchObject({ state: 'bow', loop: false, phase: 'intro' });
    clock.advance(3500);
    expect(body.getAnimation().state).toBe('idle');
    body.stop();
  });

  it('the watchdog forces idle within 10 s when a state is stuck (think with no active task)', async () => {
    const { body, clock } = await createTestBody();
    let tasks = 1;
    body.registerWatchdogProbe('think', () => tasks > 0);
    body.transitionTo('think', { contextId: 'm1' });
    clock.advance(WATCHDOG_INTERVAL_MS);
    expect(body.getAnimation().state).toBe('think');
    tasks = 0;
    clock.advance(WATCHDOG_INTERVAL_MS - 1);
    expect(body.getAnimation().state).toBe('think');
    clock.advance(1);
    expect(body.getAnimation()).toMatchObject({ state: 'idle', contexts: [] });
    body.stop();
  });

  it('the watchdog leaves a state alone while its contexts are active and nothing says otherwise', async () => {
    const { body, clock } = await createTestBody();
    body.transitionTo('think', { contextId: 'w' });
    clock.advance(WATCHDOG_INTERVAL_MS * 5);
    expect(body.getAnimation().state).toBe('think');
    body.stop();
  });

  it('idle -> higher state cancels the rotation; it restarts on the return to idle', async () => {
    const { body, clock, transport, randoms } = await createTestBody();
    clock.advance(ROTATION_MIN_MS - 1);
    randoms.push(0.9);
    body.transitionTo('write', { contextId: 'w' });
    transport.clear();
    clock.advance(ROTATION_MAX_MS);
    expect(transport.animations()).toEqual([]);
    randoms.push(0.5);
    body.stopAnimation('w');
    transport.clear();
    clock.advance(ROTATION_MIN_MS + (ROTATION_MAX_MS - ROTATION_MIN_MS) / 2 - 1);
    expect(transport.animations()).toEqual([]);
    clock.advance(1);
    expect(transport.animations()).toHaveLength(1);
    body.stop();
  });

  it('throws UnknownStateError listing the known states', async () => {
    const { body } = await createTestBody();
    expect(() => body.transitionTo('dance')).toThrow(UnknownStateError);
    try {
      body.transitionTo('dance');
    } catch (error) {
      expect((error as UnknownStateError).known).toEqual(['idle', 'talk', 'think', 'write']);
    }
    body.stop();
  });

  it('resolves registered aliases and priorities', async () => {
    const { body } = await createTestBody();
    body.registerStateAliases({ thinking: 'think' });
    expect(body.transitionTo('thinking', { contextId: 'a' })).toMatchObject({ accepted: true, state: 'think' });
    body.registerStatePriority('wave', 20);
    expect(body.transitionTo('wave', { contextId: 'b' })).toMatchObject({ accepted: true, state: 'wave' });
    expect(() => body.registerStateAliases({ x: 'nothing' })).toThrow(UnknownStateError);
    body.stop();
  });
});

describe('idle rotation and variant choice', () => {
  it('rotates idle in alphabetical order every random 30-60 s', async () => {
    const { body, clock, transport, randoms } = await createTestBody();
    // The start consumed a 0 (30 s); the next delays are 60 s and 45 s.
    randoms.push(0.999_999, 0.5);
    clock.advance(ROTATION_MIN_MS);
    expect(transport.animations()).toEqual(['Happy Idle.fbx', 'Idle.fbx']);
    clock.advance(ROTATION_MAX_MS - 1);
    expect(transport.animations()).toHaveLength(2);
    clock.advance(1);
    expect(transport.animations()).toEqual(['Happy Idle.fbx', 'Idle.fbx', 'Idle2.fbx']);
    clock.advance(45_000);
    expect(transport.animations().at(-1)).toBe('Happy Idle.fbx');
    body.stop();
  });

  it('never starts a rotation for a structured idle animation', async () => {
    const { body, clock, transport } = await createTestBody({ activeSkin: 'alt' });
    expect(body.getAnimation().file).toBe('Alt Idle.fbx');
    body.registerStateAnimations('idle', { loop: ['Alt Idle.fbx', 'Idle.fbx'] }, true);
    for (const context of ['a', 'b']) {
      body.transitionTo('think', { contextId: context });
      body.transitionTo('idle', { contextId: context });
    }
    expect(body.getAnimation().file).toBe('Alt Idle.fbx');
    transport.clear();
    clock.advance(ROTATION_MAX_MS * 3);
    expect(transport.animations()).toEqual([]);
    body.stop();
  });

  it('picks other states at random', async () => {
    const { body, randoms } = await createTestBody();
    randoms.push(0.9);
    body.transitionTo('write', { contextId: 'a' });
    expect(body.getAnimation().file).toBe('Texting.fbx');
    body.stopAnimation('a');
    randoms.length = 0;
    randoms.push(0.1);
    body.transitionTo('write', { contextId: 'b' });
    expect(body.getAnimation().file).toBe('Broken.fbx');
    body.stop();
  });

  it('register_state_animations overrides the files and their order', async () => {
    const { body } = await createTestBody();
    body.registerStateAnimations('write', { loop: ['Texting.fbx'], other: ['Broken.fbx'] }, true);
    body.transitionTo('write', { contextId: 'a' });
    expect(body.getAnimation().file).toBe('Texting.fbx');
    body.stopAnimation('a');
    body.transitionTo('write', { contextId: 'b' });
    expect(body.getAnimation().file).toBe('Broken.fbx');
    body.stop();
  });
});

describe('animation commands', () => {
  it('broadcasts every play to all sessions, and a targeted play also carries reset_eyes for its session only', async () => {
    const { body, transport } = await createTestBody({ sessions: ['s1', 's2'] });
    transport.clear();
    body.transitionTo('think', { contextId: 'a', sessionId: 's1' });
    const commands = transport.deliveries.filter((delivery) => delivery.message.type === 'vrm_animation');
    expect(commands).toEqual([
      { to: 's1', message: expect.objectContaining({ reset_eyes: true, state: 'think' }) },
      { to: null, except: 's1', message: expect.not.objectContaining({ reset_eyes: expect.anything() }) },
    ]);
    body.stop();
  });

  it('attaches animation_state with descriptor, clip and timing when the file has a descriptor, and not without', async () => {
    const { body, transport } = await createTestBody();
    body.transitionTo('think', { contextId: 'a', source: 'chain' });
    expect(lastAnimation(transport.messages())).toMatchObject({
      descriptor: { intro: { start_frame: 0, end_frame: 14 } },
      animation_state: { action: 'think', phase: 'intro', clip: { name: 'Thinking.fbx', duration: 2, fps: 30 }, priority: 10, source: 'chain', lipsync: false },
    });
    body.registerStatePriority('wave', 20);
    body.transitionTo('wave', { contextId: 'b' });
    const wave = lastAnimation(transport.messages());
    expect(wave.descriptor).toBeNull();
    expect(wave.animation_state).toBeUndefined();
    body.setEmotionSource(() => ({ dominant: 'joy', values: { joy: 0.7 } }));
    body.stopAnimation('a');
    body.stopAnimation('b');
    expect(lastAnimation(transport.messages()).animation_state).toMatchObject({ emotions: { dominant: 'joy' } });
    body.stop();
  });

  it('does not broadcast a request that changes nothing', async () => {
    const { body, transport } = await createTestBody();
    body.transitionTo('think', { contextId: 'a' });
    transport.clear();
    body.transitionTo('think', { contextId: 'b' });
    body.transitionTo('idle');
    expect(transport.deliveries).toEqual([]);
    body.stop();
  });

  it('notifies state-change callbacks on every animation change', async () => {
    const { body } = await createTestBody();
    const changes: string[] = [];
    body.onAnimationStateChanged((change) => changes.push(`${change.previous_state}->${change.state}:${change.file}`));
    body.onAnimationStateChanged(() => {
      throw new Error('a broken plugin');
    });
    body.transitionTo('think', { contextId: 'a' });
    body.transitionTo('write', { contextId: 'a' });
    body.stopAnimation('a');
    expect(changes).toEqual(['idle->think:Thinking.fbx', 'think->write:Broken.fbx', 'write->idle:Idle.fbx']);
    body.stop();
  });
});
