/** What a clip is: a pose for every frame, its file name and the descriptor written next to it. */
import type { Pose } from '../pose.ts';

export interface Section {
  start_frame: number;
  /** Inclusive. Sections share their boundary frame, so each one starts on the pose the previous ended on. */
  end_frame: number;
}

export interface Descriptor {
  fps: number;
  intro?: Section;
  loop?: Section;
  outro?: Section;
  play_once?: boolean;
}

export interface Clip {
  state: 'idle' | 'think' | 'write' | 'talk';
  /** File name without `.fbx`. */
  name: string;
  /** The clip runs from frame 0 to this frame inclusive, at `descriptor.fps`. */
  lastFrame: number;
  descriptor: Descriptor;
  pose(frame: number): Pose;
}
