/**
 * Plays animation commands on the VRM: descriptor sections in order (intro once, loop repeating, outro
 * once), a crossfade from whatever played before, and a completion callback for non-looping plays.
 */
import type { VRM } from '@pixiv/three-vrm';
import { type AnimationAction, type AnimationClip, AnimationMixer, LoopOnce, LoopRepeat } from 'three';
import type { Descriptor } from '../protocol.ts';
import { ClipLibrary } from './clip-library.ts';
import { fpsOf, locate, planSteps, sliceClip, type SectionName, type Step } from './sections.ts';

/** Between two clips; long enough to hide the pose change, short enough to feel responsive. */
const CLIP_FADE_S = 0.4;
/** Between sections of one clip, whose boundary frames coincide: only smooths key rounding. */
const SECTION_FADE_S = 0.08;

export interface PlayCommand {
  file: string;
  state: string;
  loop: boolean;
  descriptor: Descriptor | null;
  phase?: string;
  /** Seconds since the server started this play, for a client that joins part-way. */
  elapsed?: number;
}

export interface PlayerEvents {
  onSection(command: PlayCommand, section: SectionName): void;
  onComplete(command: PlayCommand): void;
  onError(command: PlayCommand, error: unknown): void;
}

interface Current {
  command: PlayCommand;
  clip: AnimationClip;
  steps: Step[];
  index: number;
  fps: number;
  action: AnimationAction;
}

export class AnimationPlayer {
  readonly mixer: AnimationMixer;
  private readonly library: ClipLibrary;
  private readonly slices = new Map<string, AnimationClip>();
  private readonly fading = new Set<AnimationAction>();
  private current: Current | undefined;
  private generation = 0;

  constructor(
    vrm: VRM,
    firstFrame: Promise<void>,
    private readonly events: PlayerEvents,
  ) {
    this.library = new ClipLibrary(vrm, firstFrame);
    this.mixer = new AnimationMixer(vrm.scene);
    this.mixer.addEventListener('finished', (event) => this.onFinished(event.action as AnimationAction));
  }

  preload(url: string): void {
    this.library.load(url).catch(() => undefined);
  }

  async play(command: PlayCommand): Promise<void> {
    const generation = ++this.generation;
    let clip: AnimationClip;
    try {
      clip = await this.library.load(command.file);
    } catch (error) {
      if (generation === this.generation) this.events.onError(command, error);
      return;
    }
    // A newer command arrived while this file loaded: it wins.
    if (generation !== this.generation) return;
    const fps = fpsOf(command.descriptor);
    const steps = planSteps(command.descriptor, command.loop, command.phase, clip);
    const start = locate(steps, fps, command.elapsed ?? 0);
    if (!start) {
      if (!command.loop) this.events.onComplete(command);
      return;
    }
    this.startStep({ command, clip, steps, index: start.index, fps }, start.offset, CLIP_FADE_S);
  }

  update(deltaSeconds: number): void {
    this.mixer.update(deltaSeconds);
    for (const action of this.fading) {
      if (action.getEffectiveWeight() > 0) continue;
      action.stop();
      this.fading.delete(action);
    }
  }

  /** The frame of the playing clip (in the file's own numbering), for frame-ranged expression cues. */
  currentFrame(): { file: string; frame: number } | undefined {
    if (!this.current) return undefined;
    const step = this.current.steps[this.current.index];
    if (!step) return undefined;
    return { file: this.current.command.file, frame: step.from + Math.floor(this.current.action.time * this.current.fps) };
  }

  private startStep(next: Omit<Current, 'action'>, offset: number, fade: number): void {
    const step = next.steps[next.index];
    if (!step) return;
    const action = this.mixer.clipAction(this.slice(next.clip, next.command.file, step, next.fps));
    const previous = this.current?.action;
    action.reset();
    action.setLoop(step.repeat ? LoopRepeat : LoopOnce, Infinity);
    action.clampWhenFinished = true;
    action.time = offset;
    this.fading.delete(action);
    if (previous && previous !== action) {
      action.crossFadeFrom(previous, fade, false);
      this.fading.add(previous);
    }
    action.play();
    this.current = { ...next, action };
    this.events.onSection(next.command, step.section);
  }

  private onFinished(action: AnimationAction): void {
    const current = this.current;
    if (!current || action !== current.action) return;
    if (current.index + 1 < current.steps.length) {
      this.startStep({ ...current, index: current.index + 1 }, 0, SECTION_FADE_S);
    } else if (!current.command.loop) {
      this.events.onComplete(current.command);
    }
  }

  private slice(clip: AnimationClip, file: string, step: Step, fps: number): AnimationClip {
    const key = `${file}#${step.from}-${step.to}@${fps}`;
    let slice = this.slices.get(key);
    if (!slice) {
      slice = sliceClip(clip, step, fps);
      this.slices.set(key, slice);
    }
    return slice;
  }
}
