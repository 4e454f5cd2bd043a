import { describe, expect, it } from 'vitest';
import { animationMessage, type Playing } from '../../src/body/animation-payload.ts';
import { parseDescriptor, type Descriptor } from '../../src/body/descriptor.ts';

const CUES = {
  loop: { start_frame: 0, end_frame: 59 },
  expressions: [{ start_frame: 10, end_frame: 20, targets: { smile: 0.8 }, source: 'clip', priority: 2 }],
  blink: { auto: true, rate_s: 3.5, intensity: 1 },
  eye_movement: { auto: false },
};

function playing(descriptor: Descriptor | null): Playing {
  return {
    state: 'write',
    file: { state: 'write', name: 'Texting.fbx', path: '/skins/x/Texting.fbx', url: '/animations/x/write/Texting.fbx', descriptor },
    loop: true,
    phase: 'loop',
    startedAt: 0,
    priority: 3,
    source: undefined,
    contextId: undefined,
  };
}

describe('animation_state face cues', () => {
  it("carries the descriptor's expressions, blink and eye_movement, and the runtime emotions", () => {
    const reading = parseDescriptor(JSON.stringify(CUES));
    if (!reading.ok) throw new Error(reading.reason);
    const message = animationMessage(playing(reading.descriptor), 1000, { dominant: 'happy', values: { happy: 0.6 } });
    expect(message?.animation_state).toMatchObject({
      expressions: CUES.expressions,
      blink: CUES.blink,
      eye_movement: CUES.eye_movement,
      emotions: { dominant: 'happy', values: { happy: 0.6 } },
    });
  });

  it('sends none of them for a clip whose descriptor has none, and no animation_state without descriptor or emotions', () => {
    const plain = animationMessage(playing({ loop: { start_frame: 0, end_frame: 59 } }), 0, undefined);
    expect(plain?.animation_state).toBeDefined();
    expect(plain?.animation_state?.expressions).toBeUndefined();
    expect(plain?.animation_state?.blink).toBeUndefined();
    expect(animationMessage(playing(null), 0, undefined)?.animation_state).toBeUndefined();
    expect(animationMessage(playing(null), 0, { dominant: 'sad', values: { sad: 0.2 } })?.animation_state?.emotions).toEqual({
      dominant: 'sad',
      values: { sad: 0.2 },
    });
  });

  it('refuses a descriptor whose cue ends before it starts or weighs more than 1', () => {
    expect(parseDescriptor(JSON.stringify({ expressions: [{ start_frame: 9, end_frame: 3, targets: {} }] })).ok).toBe(false);
    expect(parseDescriptor(JSON.stringify({ expressions: [{ start_frame: 0, end_frame: 3, targets: { smile: 2 } }] })).ok).toBe(false);
    expect(parseDescriptor(JSON.stringify({ blink: { rate_s: -1 } })).ok).toBe(false);
  });
});
