/**
 * `window.__app_face`: what a browser test needs to check the face's rules frame by frame. It reads the
 * weights the face wrote to the model, where the eyes look and the clip's frame, and it can hold the
 * frame clock, step it by a given delta and seed the face's random choices, so nothing depends on
 * requestAnimationFrame timing or luck.
 */
import type { VRM } from '@pixiv/three-vrm';
import type { Eyes } from './eyes.ts';
import type { AnimationPlayer } from './player.ts';
import { seedRandom } from './random.ts';
import type { Stage } from './stage.ts';

export interface FaceSample {
  /** The playing clip's frame (its own numbering), null before a clip plays. */
  frame: number | null;
  /** Expression name to the weight the face set this frame. */
  weights: Record<string, number>;
  gaze: { x: number; y: number };
}

export interface FaceProbe {
  hold(): void;
  release(): void;
  seed(seed: number): void;
  /** Null until a model is shown. `keys` limits the weights to those expressions. */
  sample(keys?: string[]): FaceSample | null;
  /** Runs `frames` frames of `seconds` each and samples after each one. */
  step(seconds: number, frames?: number, keys?: string[]): FaceSample[];
}

declare global {
  interface Window {
    __app_face?: FaceProbe;
  }
}

interface Shown {
  vrm: VRM;
  eyes: Eyes;
  player: AnimationPlayer;
}

export function installFaceProbe(stage: Stage, shown: () => Shown | undefined): void {
  const sample = (keys?: string[]): FaceSample | null => {
    const body = shown();
    const manager = body?.vrm.expressionManager;
    if (!body || !manager) return null;
    const names = keys ?? manager.expressions.map((expression) => expression.expressionName);
    const weights = Object.fromEntries(names.map((name) => [name, manager.getValue(name) ?? 0]));
    return { frame: body.player.currentFrame()?.frame ?? null, weights, gaze: body.eyes.gazeOffset() };
  };
  window.__app_face = {
    hold: () => stage.hold(true),
    release: () => stage.hold(false),
    seed: seedRandom,
    sample,
    step(seconds, frames = 1, keys) {
      const samples: FaceSample[] = [];
      for (let index = 0; index < frames; index += 1) {
        stage.step(seconds);
        const taken = sample(keys);
        if (taken) samples.push(taken);
      }
      return samples;
    },
  };
}
