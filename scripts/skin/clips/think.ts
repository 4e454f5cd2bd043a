/** Thinking: raise the hand to the chin (intro), hold with small taps and head tilts (loop), lower it (outro). */
import type { Clip } from './clip.ts';
import { keyed, layer, scaleDelta, wave, type PoseDelta } from './pose-math.ts';
import { STAND, THINK, THINK_VIA } from './poses.ts';

const INTRO_END = 20;
const LOOP_END = 110;
const LAST = 130;
const LOOP = LOOP_END - INTRO_END;

/** Fingers tapping the chin, approximated by the whole hand since the avatar has mitten hands. */
const TAP: PoseDelta = { arms: { right: { hand: [0, -0.12, 0.12] } } };
const PONDER: PoseDelta = { rotations: { head: [-3, -5, 3], neck: [0, -3, 0] } };
const BREATH: PoseDelta = { rotations: { upperChest: [-1, 0, 0] }, hips: [0, 0.002, 0] };

export const THINK_CLIPS: Clip[] = [
  {
    state: 'think',
    name: 'Thinking',
    lastFrame: LAST,
    descriptor: {
      fps: 30,
      intro: { start_frame: 0, end_frame: INTRO_END },
      loop: { start_frame: INTRO_END, end_frame: LOOP_END },
      outro: { start_frame: LOOP_END, end_frame: LAST },
    },
    pose: (f) => {
      if (f <= INTRO_END)
        return keyed(
          [
            { frame: 0, pose: STAND },
            { frame: 10, pose: THINK_VIA },
            { frame: INTRO_END, pose: THINK },
          ],
          f,
        );
      if (f >= LOOP_END)
        return keyed(
          [
            { frame: LOOP_END, pose: THINK },
            { frame: 120, pose: THINK_VIA },
            { frame: LAST, pose: STAND },
          ],
          f,
        );
      // Every wave is zero at both loop ends, so the loop starts and ends exactly on THINK.
      const t = f - INTRO_END;
      return layer(THINK, scaleDelta(TAP, Math.max(0, wave(t, LOOP, 4))), scaleDelta(PONDER, wave(t, LOOP, 1)), scaleDelta(BREATH, wave(t, LOOP, 1) ** 2));
    },
  },
];
