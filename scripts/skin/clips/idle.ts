/** Idle variants: breathing with a slight sway, a weight shift while looking around, and a happy bounce. */
import type { Clip } from './clip.ts';
import { layer, scaleDelta, wave, type PoseDelta } from './pose-math.ts';
import { REST_ON_RIGHT, STAND } from './poses.ts';

const FPS = 30;

/** Inhale: the chest lifts and opens, shoulders rise a little. */
const BREATH: PoseDelta = {
  hips: [0, 0.002, 0],
  rotations: {
    spine: [-0.6, 0, 0],
    upperChest: [-1.4, 0, 0],
    neck: [0.8, 0, 0],
    head: [0.6, 0, 0],
    leftShoulder: [0, 0, 1.8],
    rightShoulder: [0, 0, -1.8],
  },
  arms: { left: { lower: [0, 0, 0.03] }, right: { lower: [0, 0, 0.03] } },
};

/** Weight drifting to the left; the legs counter-rotate so the feet stay put. */
const SWAY: PoseDelta = {
  hips: [0.008, 0, 0],
  rotations: {
    hips: [0, 0, 1.2],
    spine: [0, 0, -0.7],
    chest: [0, 0, -0.5],
    leftUpperLeg: [0, 0, -1.2],
    rightUpperLeg: [0, 0, -1.2],
  },
};

const LOOK_AROUND: PoseDelta = { rotations: { neck: [0, 5, 0], head: [0, 9, 0] } };
const NOD: PoseDelta = { rotations: { head: [3, 0, 0] } };
const TILT: PoseDelta = { rotations: { head: [0, 0, 6], neck: [0, 0, 2] } };

/** Knees bend by `a` degrees with the shins tilted forward and the feet flat; the hips drop to match. */
const BOUNCE_DEG = 10;
const BOUNCE: PoseDelta = {
  hips: [0, -0.78 * (1 - Math.cos((BOUNCE_DEG * Math.PI) / 180)), 0],
  rotations: {
    spine: [2, 0, 0],
    leftUpperLeg: [-BOUNCE_DEG, 0, 0],
    rightUpperLeg: [-BOUNCE_DEG, 0, 0],
    leftLowerLeg: [2 * BOUNCE_DEG, 0, 0],
    rightLowerLeg: [2 * BOUNCE_DEG, 0, 0],
    leftFoot: [-BOUNCE_DEG, 0, 0],
    rightFoot: [-BOUNCE_DEG, 0, 0],
    leftShoulder: [0, 0, 2],
    rightShoulder: [0, 0, -2],
  },
};
const ARM_SWING: PoseDelta = {
  arms: { left: { upper: [0, 0, 0.22], lower: [0, 0, 0.3] }, right: { upper: [0, 0, -0.22], lower: [0, 0, -0.1] } },
  rotations: { chest: [0, 5, 0] },
};

/** 0 at the loop's ends, 1 in the middle of each cycle. */
const pulse = (frame: number, length: number, cycles: number): number => (1 - Math.cos((2 * Math.PI * cycles * frame) / length)) / 2;

const IDLE_FRAMES = 120;
const IDLE2_FRAMES = 180;
const HAPPY_FRAMES = 120;

export const IDLE_CLIPS: Clip[] = [
  {
    state: 'idle',
    name: 'Idle',
    lastFrame: IDLE_FRAMES,
    descriptor: { fps: FPS, loop: { start_frame: 0, end_frame: IDLE_FRAMES } },
    pose: (f) =>
      layer(
        STAND,
        scaleDelta(BREATH, pulse(f, IDLE_FRAMES, 1)),
        scaleDelta(SWAY, wave(f, IDLE_FRAMES, 1)),
        scaleDelta(LOOK_AROUND, 0.3 * wave(f, IDLE_FRAMES, 1, 1.3)),
      ),
  },
  {
    state: 'idle',
    name: 'Idle2',
    lastFrame: IDLE2_FRAMES,
    descriptor: { fps: FPS, loop: { start_frame: 0, end_frame: IDLE2_FRAMES } },
    pose: (f) =>
      layer(
        REST_ON_RIGHT,
        scaleDelta(BREATH, pulse(f, IDLE2_FRAMES, 2)),
        scaleDelta(SWAY, 0.5 * wave(f, IDLE2_FRAMES, 1, 0.5)),
        scaleDelta(LOOK_AROUND, 1.6 * wave(f, IDLE2_FRAMES, 1)),
        scaleDelta(NOD, wave(f, IDLE2_FRAMES, 2)),
      ),
  },
  {
    state: 'idle',
    name: 'Happy Idle',
    lastFrame: HAPPY_FRAMES,
    descriptor: { fps: FPS, loop: { start_frame: 0, end_frame: HAPPY_FRAMES } },
    pose: (f) =>
      layer(
        STAND,
        scaleDelta(BOUNCE, pulse(f, HAPPY_FRAMES, 4)),
        scaleDelta(ARM_SWING, wave(f, HAPPY_FRAMES, 2)),
        scaleDelta(TILT, wave(f, HAPPY_FRAMES, 2)),
        scaleDelta(BREATH, 0.5 * pulse(f, HAPPY_FRAMES, 2)),
      ),
  },
];
