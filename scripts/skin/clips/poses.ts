/** Key poses shared by the clips. Directions are in the upper chest's frame (+X left, +Y up, +Z forward). */
import type { ArmPose, Pose } from '../pose.ts';
import { mirrorArm } from './pose-math.ts';

const both = (left: ArmPose): Pose['arms'] => ({ left, right: mirrorArm(left) });

/** Relaxed standing: arms hang beside the hips with a soft elbow, palms toward the thighs. */
export const STAND: Pose = {
  hips: [0, 0, 0],
  rotations: {},
  arms: both({ upper: [0.2, -0.98, 0.0], lower: [0.1, -0.98, 0.14], hand: [0.06, -0.99, 0.12], twist: 0 }),
};

/** Right hand under the chin, left forearm across the waist holding the right elbow, head tilted. */
export const THINK: Pose = {
  hips: [0, 0, 0],
  rotations: {
    spine: [2, 0, 0],
    neck: [-4, -6, 4],
    head: [-6, -8, 8],
  },
  arms: {
    left: { upper: [-0.05, -0.85, 0.52], lower: [-0.95, 0.12, 0.3], hand: [-0.9, 0.1, 0.25], twist: 0 },
    right: { upper: [0.075, -0.887, 0.453], lower: [0.41, 0.9, 0.14], hand: [0.28, 0.9, -0.34], twist: -70 },
  },
};

/** Halfway into THINK: the forearm swings up in front of the body rather than across it. */
export const THINK_VIA: Pose = {
  hips: [0, 0, 0],
  rotations: { spine: [1, 0, 0], head: [-2, -3, 3] },
  arms: {
    left: { upper: [0.05, -0.92, 0.35], lower: [-0.5, -0.4, 0.75], hand: [-0.5, -0.3, 0.7], twist: 0 },
    right: { upper: [0.1, -0.9, 0.4], lower: [0.15, 0.1, 0.98], hand: [0.2, 0.3, 0.9], twist: -35 },
  },
};

/** Both hands holding a phone in front of the chest, head bowed to the screen. */
export const PHONE: Pose = {
  hips: [0, 0, 0],
  rotations: {
    spine: [3, 0, 0],
    chest: [2, 0, 0],
    neck: [10, 0, 0],
    head: [16, 0, 0],
  },
  arms: both({ upper: [0.08, -0.97, 0.25], lower: [-0.48, 0.2, 0.85], hand: [-0.25, 0.35, 0.9], twist: 80 }),
};

/** Speaking stance: forearms raised in front of the waist, ready to gesture. */
export const TALK: Pose = {
  hips: [0, 0, 0],
  rotations: { spine: [-1, 0, 0] },
  arms: both({ upper: [0.22, -0.96, 0.1], lower: [0.2, -0.3, 0.93], hand: [0.15, -0.15, 0.97], twist: 40 }),
};

/** Contrapposto: weight on the right leg, its hip raised, the left knee relaxed; the spine re-centres the head. */
export const REST_ON_RIGHT: Pose = {
  hips: [-0.02, -0.006, 0],
  rotations: {
    hips: [0, 0, -3],
    spine: [0, 0, 2],
    chest: [0, 0, 1],
    rightUpperLeg: [0, 0, 3],
    leftUpperLeg: [-6, 0, 3],
    leftLowerLeg: [12, 0, 0],
    leftFoot: [-6, 0, 0],
  },
  arms: STAND.arms,
};
