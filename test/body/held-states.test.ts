import { describe, expect, it } from 'vitest';
import { speakingBody } from '../../src/audio/speaking-body.ts';
import { WATCHDOG_INTERVAL_MS } from '../../src/body/animation-machine.ts';
import { FALLBACK_BUFFER_MS } from '../../src/body/descriptor.ts';
import { registerBusyProbe } from '../../src/chain/message-animation.ts';
import { createLogger } from '../../src/logging.ts';
import { createTestBody } from '../helpers/body.ts';

const { logger } = createLogger({ level: 'silent', pretty: false });

/** Vox's hold on the body, as production builds it, with the chain's probe saying its answer is delivered. */
async function speakingTestBody() {
  const test = await createTestBody();
  registerBusyProbe(test.body, () => false);
  return { ...test, voice: speakingBody(test.body, logger) };
}

describe('talk lasts as long as the speech', () => {
  it('keeps talk for all 21 s of speech, across every watchdog tick, then idles', async () => {
    const { body, clock, voice } = await speakingTestBody();
    // Ticks of the watchdog land at 10 s and 20 s of the speech (the report: idle at 9.6 s).
    clock.advance(400);
    voice.speak({ url: '/tts/long.wav', durationS: 21, lipsync: null });
    for (let second = 1; second <= 20; second += 1) {
      clock.advance(1000);
      expect(body.getAnimation().state, `after ${second} s`).toBe('talk');
    }
    clock.advance(999);
    expect(body.getAnimation().state).toBe('talk');
    clock.advance(1);
    expect(body.getAnimation()).toMatchObject({ state: 'idle', contexts: [] });
    voice.stop();
    body.stop();
  });

  it('keeps talk through a watchdog tick right after short speech starts', async () => {
    const { body, clock, voice } = await speakingTestBody();
    clock.advance(WATCHDOG_INTERVAL_MS - 130);
    voice.speak({ url: '/tts/short.wav', durationS: 1.9, lipsync: null });
    clock.advance(130);
    expect(body.getAnimation().state).toBe('talk');
    clock.advance(1769);
    expect(body.getAnimation().state).toBe('talk');
    clock.advance(1);
    expect(body.getAnimation().state).toBe('idle');
    voice.stop();
    body.stop();
  });

  it('repeats a play-once talk clip while the speech lasts instead of idling after one pass', async () => {
    // The fixture's talking.fbx is a 2 s loop section with play_once: one pass, then the fallback.
    const { body, clock, voice, transport } = await speakingTestBody();
    voice.speak({ url: '/tts/long.wav', durationS: 12, lipsync: null });
    transport.clear();
    clock.advance(2000 + FALLBACK_BUFFER_MS);
    expect(body.getAnimation()).toMatchObject({ state: 'talk', loop: false });
    expect(transport.animations()).toEqual(['talking.fbx']);
    expect(body.completeAnimation('/skins/default/animations/talk/talking.fbx', 'talk')).toBe(true);
    expect(body.getAnimation().state).toBe('talk');
    clock.advance(12_000);
    expect(body.getAnimation().state).toBe('idle');
    voice.stop();
    body.stop();
  });

  it('still rescues talk stuck after its speech ended when nothing holds it', async () => {
    const { body, clock } = await speakingTestBody();
    body.setAudio({ url: '/tts/a.wav', audio_duration_s: 2 });
    body.playAnimation('talk', true, { contextId: 'lost' });
    clock.advance(WATCHDOG_INTERVAL_MS);
    expect(body.getAnimation()).toMatchObject({ state: 'idle', contexts: [] });
    body.stop();
  });

  it('does not let speech hold a state other than talk', async () => {
    const { body, clock } = await speakingTestBody();
    body.setAudio({ url: '/tts/a.wav', audio_duration_s: 30 });
    body.transitionTo('think', { contextId: 'stuck' });
    clock.advance(WATCHDOG_INTERVAL_MS);
    expect(body.getAnimation().state).toBe('idle');
    body.stop();
  });
});

describe('think, write and talk loop while their context lives', () => {
  it('keeps looping write without a descriptor for a 60 s answer', async () => {
    const { body, clock, transport } = await createTestBody();
    let generating = true;
    registerBusyProbe(body, () => generating);
    // Random 0 picks Broken.fbx, whose descriptor is unreadable: the clip has none.
    expect(body.transitionTo('write', { contextId: 'answer' })).toMatchObject({ accepted: true, state: 'write' });
    expect(body.getAnimation()).toMatchObject({ file: 'Broken.fbx', descriptor: null, loop: true });
    transport.clear();
    clock.advance(60_000);
    expect(body.getAnimation()).toMatchObject({ state: 'write', loop: true, contexts: ['answer'] });
    expect(transport.animations()).toEqual([]);
    generating = false;
    body.stopAnimation('answer');
    expect(body.getAnimation().state).toBe('idle');
    body.stop();
  });

  it('plays write once when the caller asks for no loop, and then ends its context', async () => {
    const { body, clock } = await createTestBody();
    registerBusyProbe(body, () => true);
    body.playAnimation('write', false, { contextId: 'once' });
    expect(body.getAnimation()).toMatchObject({ state: 'write', file: 'Broken.fbx', loop: false });
    clock.advance(4500);
    expect(body.getAnimation()).toMatchObject({ state: 'idle', contexts: [] });
    body.stop();
  });

  it('plays a one-shot state once and ends its context, as the effective_loop table says', async () => {
    const { body, clock } = await createTestBody();
    body.registerStatePriority('wave', 1);
    body.transitionTo('wave', { contextId: 'w' });
    expect(body.getAnimation()).toMatchObject({ state: 'wave', loop: false });
    clock.advance(4500);
    expect(body.getAnimation()).toMatchObject({ state: 'idle', contexts: [] });
    body.stop();
  });

  it('the watchdog still rescues a held state whose probe says nothing is running', async () => {
    const { body, clock } = await createTestBody();
    registerBusyProbe(body, () => false);
    body.transitionTo('write', { contextId: 'orphan' });
    clock.advance(WATCHDOG_INTERVAL_MS);
    expect(body.getAnimation()).toMatchObject({ state: 'idle', contexts: [] });
    // A repeating play-once talk clip is no shelter from it either.
    body.transitionTo('talk', { contextId: 'orphan-talk' });
    clock.advance(WATCHDOG_INTERVAL_MS);
    expect(body.getAnimation()).toMatchObject({ state: 'idle', contexts: [] });
    body.stop();
  });
});
