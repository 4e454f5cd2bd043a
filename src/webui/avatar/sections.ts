/**
 * Descriptor sections as playback steps. end_frame is inclusive (the server counts
 * end - start + 1 frames), so a section of frames a..b lasts (b - a + 1) / fps seconds on screen.
 */
import { AnimationClip, type Interpolant, type KeyframeTrack } from 'three';
import type { Descriptor } from '../protocol.ts';

export type SectionName = 'intro' | 'loop' | 'outro' | 'once';

export interface Step {
  section: SectionName;
  from: number;
  to: number;
  repeat: boolean;
}

const DEFAULT_FPS = 30;

export function fpsOf(descriptor: Descriptor | null | undefined): number {
  return descriptor?.fps && descriptor.fps > 0 ? descriptor.fps : DEFAULT_FPS;
}

/** The whole clip as frames 0..last, for clips without (some) sections. */
function wholeClip(clip: AnimationClip, fps: number): { from: number; to: number } {
  return { from: 0, to: Math.max(0, Math.round(clip.duration * fps)) };
}

/**
 * What to play for a command: `outro` plays the outro alone; a looping play is intro then the repeating
 * loop; a non-looping play runs intro, loop once, outro (whichever exist), or the whole clip once.
 */
export function planSteps(descriptor: Descriptor | null, loop: boolean, phase: string | undefined, clip: AnimationClip): Step[] {
  const fps = fpsOf(descriptor);
  const range = (section: SectionName, frames: { start_frame: number; end_frame: number }, repeat: boolean): Step => ({
    section,
    from: frames.start_frame,
    to: frames.end_frame,
    repeat,
  });
  if (phase === 'outro') return descriptor?.outro ? [range('outro', descriptor.outro, false)] : [];
  const steps: Step[] = [];
  if (descriptor?.intro) steps.push(range('intro', descriptor.intro, false));
  if (loop) {
    steps.push(descriptor?.loop ? range('loop', descriptor.loop, true) : { section: 'loop', ...wholeClip(clip, fps), repeat: true });
    return steps;
  }
  if (descriptor?.loop) steps.push(range('loop', descriptor.loop, false));
  if (descriptor?.outro) steps.push(range('outro', descriptor.outro, false));
  if (steps.length === 0) steps.push({ section: 'once', ...wholeClip(clip, fps), repeat: false });
  return steps;
}

export function stepSeconds(step: Step, fps: number): number {
  return (step.to - step.from + 1) / fps;
}

/**
 * Where a late joiner starts: the step and the offset in it after `elapsed` seconds; a repeating last step
 * wraps. Undefined when a non-repeating plan is already over.
 */
export function locate(steps: Step[], fps: number, elapsed: number): { index: number; offset: number } | undefined {
  let remaining = Math.max(0, elapsed);
  for (const [index, step] of steps.entries()) {
    const length = stepSeconds(step, fps);
    if (step.repeat) return { index, offset: remaining % length };
    if (remaining < length) return { index, offset: remaining };
    remaining -= length;
  }
  return undefined;
}

/**
 * The frames from..to of a clip as a clip of its own, resampled at the section's fps so that frame
 * boundaries do not depend on where the FBX happened to put its keys. Its last key sits at the section's
 * last frame; the extra frame of screen time is the wrap (or hand-over) to the next step.
 */
export function sliceClip(clip: AnimationClip, step: Step, fps: number): AnimationClip {
  const frames = step.to - step.from + 1;
  const tracks: KeyframeTrack[] = clip.tracks.map((track) => {
    // Set at run time by the track's interpolation mode (slerp for quaternions); not in the type definitions.
    const interpolant = (track as KeyframeTrack & { createInterpolant(): Interpolant }).createInterpolant();
    const size = track.getValueSize();
    const times = new Float32Array(frames);
    const values = new Float32Array(frames * size);
    for (let frame = 0; frame < frames; frame += 1) {
      times[frame] = frame / fps;
      values.set(interpolant.evaluate((step.from + frame) / fps), frame * size);
    }
    const Track = track.constructor as new (name: string, times: Float32Array, values: Float32Array) => KeyframeTrack;
    return new Track(track.name, times, values);
  });
  return new AnimationClip(`${clip.name}:${step.section}`, frames / fps, tracks);
}
