/** Writing: typing on a phone, once with a raise/lower around the loop and once already holding it. */
import type { Clip } from './clip.ts';
import { keyed, layer, scaleDelta, wave, type PoseDelta } from './pose-math.ts';
import { PHONE, REST_ON_RIGHT, STAND } from './poses.ts';

/** Thumbs typing, shown as small alternating hand dips. */
const TYPE_LEFT: PoseDelta = { arms: { left: { hand: [0, -0.1, 0] }, right: { hand: [0, 0.1, 0] } } };
const READ: PoseDelta = { rotations: { head: [2, 0, 3], neck: [1, 0, 0] } };
const SHIFT: PoseDelta = { hips: REST_ON_RIGHT.hips, rotations: REST_ON_RIGHT.rotations };

const INTRO_END = 15;
const LOOP_END = 105;
const LAST = 120;
const LOOP = LOOP_END - INTRO_END;
const TEXTING_FRAMES = 150;

export const WRITE_CLIPS: Clip[] = [
  {
    state: 'write',
    name: 'Texting While Standing',
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
            { frame: INTRO_END, pose: PHONE },
          ],
          f,
        );
      if (f >= LOOP_END)
        return keyed(
          [
            { frame: LOOP_END, pose: PHONE },
            { frame: LAST, pose: STAND },
          ],
          f,
        );
      const t = f - INTRO_END;
      return layer(PHONE, scaleDelta(TYPE_LEFT, wave(t, LOOP, 9)), scaleDelta(READ, wave(t, LOOP, 1)));
    },
  },
  {
    state: 'write',
    name: 'Texting',
    lastFrame: TEXTING_FRAMES,
    descriptor: { fps: 30, loop: { start_frame: 0, end_frame: TEXTING_FRAMES } },
    pose: (f) => {
      // Typing comes in bursts: the envelope fades the thumbs out twice per loop.
      const burst = (1 - Math.cos((4 * Math.PI * f) / TEXTING_FRAMES)) / 2;
      return layer(PHONE, SHIFT, scaleDelta(TYPE_LEFT, burst * wave(f, TEXTING_FRAMES, 15)), scaleDelta(READ, -wave(f, TEXTING_FRAMES, 1)));
    },
  },
];
