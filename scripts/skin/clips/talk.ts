/** Talking: open-hand gestures with one hand, the other, then both, over nods and a turning torso. */
import type { Pose } from '../pose.ts';
import type { Clip } from './clip.ts';
import { keyed, layer, mirrorArm, scaleDelta, wave, type PoseDelta } from './pose-math.ts';
import { TALK } from './poses.ts';

const OPEN_LEFT = { upper: [0.35, -0.88, 0.3], lower: [0.45, 0.15, 0.88], hand: [0.55, 0.3, 0.78], twist: 70 } as const;
const GESTURE_LEFT: Pose = { ...TALK, rotations: { chest: [0, 6, 0], head: [0, 6, 0] }, arms: { ...TALK.arms, left: OPEN_LEFT } };
const GESTURE_RIGHT: Pose = {
  ...TALK,
  rotations: { chest: [0, -6, 0], head: [0, -6, 0] },
  arms: { ...TALK.arms, right: mirrorArm(OPEN_LEFT) },
};
const GESTURE_BOTH: Pose = { ...TALK, rotations: { head: [-3, 0, 0] }, arms: { left: OPEN_LEFT, right: mirrorArm(OPEN_LEFT) } };

const NOD: PoseDelta = { rotations: { head: [4, 0, 0], neck: [1, 0, 0] } };
const BEAT: PoseDelta = { arms: { left: { lower: [0, 0.08, 0] }, right: { lower: [0, 0.08, 0] } } };
const SWAY: PoseDelta = { hips: [0.006, 0, 0], rotations: { hips: [0, 0, 0.8], leftUpperLeg: [0, 0, -0.8], rightUpperLeg: [0, 0, -0.8] } };

const FRAMES = 180;

export const TALK_CLIPS: Clip[] = [
  {
    state: 'talk',
    name: 'talking',
    lastFrame: FRAMES,
    descriptor: { fps: 30, loop: { start_frame: 0, end_frame: FRAMES } },
    pose: (f) =>
      layer(
        keyed(
          [
            { frame: 0, pose: TALK },
            { frame: 30, pose: GESTURE_RIGHT },
            { frame: 60, pose: TALK },
            { frame: 90, pose: GESTURE_LEFT },
            { frame: 115, pose: TALK },
            { frame: 145, pose: GESTURE_BOTH },
            { frame: FRAMES, pose: TALK },
          ],
          f,
        ),
        scaleDelta(NOD, wave(f, FRAMES, 6)),
        scaleDelta(BEAT, wave(f, FRAMES, 9)),
        scaleDelta(SWAY, wave(f, FRAMES, 1)),
      ),
  },
];
