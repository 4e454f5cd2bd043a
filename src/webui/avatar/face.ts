/**
 * The face: layers of blend-shape weights combined every frame and written to the VRM's expressions.
 *  - baseline: `vrm_face` values, eased in at emotion_speed.default and decaying at emotion_speed.decay
 *  - override: `vrm_expression_set`/`clear`, a smooth lerp towards the named preset and back
 *  - cues: `animation_state.expressions`, active between their frames of the playing clip
 *  - emotion overlay: the strongest emotion of `animation_state.emotions`, after a short random delay
 *  - visemes: the two strongest visemes of the speech at the audio's time (viseme-blend.ts)
 * plus automatic blinks and saccades (eyes.ts), with the held eyes_closed clamped to 0.85.
 */
import type { VRM } from '@pixiv/three-vrm';
import type { AnimationStateInfo, ExpressionCue } from '../protocol.ts';
import type { Eyes } from './eyes.ts';
import { type Persona, presetFor, resolveKey, type Weights } from './persona.ts';
import { random, uniform } from './random.ts';

const OVERRIDE_RATE = 6;
const VISEME_RATE = 18;
const EYES_CLOSED_MAX = 0.85;
/** Emotion overlay: delay after the action starts, and a duration growing with intensity (docs/decisions.md). */
const OVERLAY_DELAY_S: [number, number] = [0.15, 0.6];
const OVERLAY_BASE_S = 1.5;
const OVERLAY_PER_INTENSITY_S = 3;
const OVERLAY_JITTER: [number, number] = [0.85, 1.15];
const OVERLAY_RAMP_S = 0.3;

interface Overlay {
  weights: Weights;
  startsIn: number;
  remaining: number;
  total: number;
}

function ease(current: number, target: number, rate: number, delta: number): number {
  return current + (target - current) * (1 - Math.exp(-rate * delta));
}

/** The strongest emotion; ties are broken at random. */
export function strongestEmotion(values: Record<string, number>): [string, number] | undefined {
  let best: Array<[string, number]> = [];
  let top = 0;
  for (const [name, value] of Object.entries(values)) {
    if (value <= 0 || value < top) continue;
    if (value > top) best = [];
    top = value;
    best.push([name, value]);
  }
  return best[Math.floor(random() * best.length)];
}

export class Face {
  private readonly baseline = new Map<string, { current: number; target: number }>();
  private override: { weights: Weights; current: number; target: number } | undefined;
  private cues: { file: string; list: ExpressionCue[] } | undefined;
  private overlay: Overlay | undefined;
  private readonly visemes = new Map<string, { current: number; target: number }>();
  private speaking = false;
  private readonly touched = new Set<string>();

  constructor(
    private readonly vrm: VRM,
    private readonly eyes: Eyes,
    private persona: Persona,
  ) {}

  setPersona(persona: Persona): void {
    this.persona = persona;
  }

  /** A `vrm_face` carries the whole emotional state (the server replaces its map): a key it leaves out eases back to 0. */
  applyFace(values: Record<string, number>): void {
    const targets = new Map(Object.entries(values).map(([key, value]) => [resolveKey(this.persona, key), Math.min(1, Math.max(0, value))]));
    for (const name of new Set([...this.baseline.keys(), ...targets.keys()])) {
      const entry = this.baseline.get(name) ?? { current: 0, target: 0 };
      entry.target = targets.get(name) ?? 0;
      this.baseline.set(name, entry);
    }
  }

  setExpression(name: string, intensity: number): void {
    const current = this.override?.current ?? 0;
    this.override = { weights: presetFor(this.persona, name), current, target: Math.min(1, Math.max(0, intensity)) };
  }

  clearExpression(): void {
    if (this.override) this.override.target = 0;
  }

  /**
   * The rich state of a new animation command: its frame cues, blink/saccade settings, emotion overlay.
   * A command without one (or without some of its fields) brings back the defaults.
   */
  setAnimationState(file: string, state: AnimationStateInfo | undefined): void {
    this.cues = state?.expressions?.length ? { file, list: state.expressions } : undefined;
    this.eyes.configure(state?.blink, state?.eye_movement);
    const strongest = state?.emotions ? strongestEmotion(state.emotions.values) : undefined;
    if (!strongest) return;
    const [name, intensity] = strongest;
    const level = Math.min(1, intensity);
    const preset = this.persona.emotions[name] ?? { [resolveKey(this.persona, name)]: 1 };
    const weights = Object.fromEntries(Object.entries(preset).map(([shape, weight]) => [shape, weight * level]));
    const total = (OVERLAY_BASE_S + OVERLAY_PER_INTENSITY_S * level) * uniform(...OVERLAY_JITTER);
    this.overlay = { weights, startsIn: uniform(...OVERLAY_DELAY_S), remaining: total, total };
  }

  /**
   * Viseme weights for this frame, undefined when no speech plays. While speech plays they are shown as
   * they are (already smoothed in audio time, so every window shows the same mouth at the same moment);
   * once it stops the mouth eases shut.
   */
  setVisemeTarget(target: Weights | undefined): void {
    this.speaking = target !== undefined;
    for (const name of new Set([...this.visemes.keys(), ...Object.keys(target ?? {})])) {
      const entry = this.visemes.get(name) ?? { current: 0, target: 0 };
      entry.target = target?.[name] ?? 0;
      this.visemes.set(name, entry);
    }
  }

  update(delta: number, frame: { file: string; frame: number } | undefined): void {
    const weights = new Map<string, number>();
    const raise = (name: string, value: number) => weights.set(name, Math.max(weights.get(name) ?? 0, value));
    const { default: rise, decay } = this.persona.emotion_speed;
    for (const entry of this.baseline.values()) {
      entry.target *= Math.exp(-decay * delta);
      entry.current = ease(entry.current, entry.target, rise, delta);
    }
    const override = this.override;
    if (override) override.current = ease(override.current, override.target, OVERRIDE_RATE, delta);
    const overrideLevel = override?.current ?? 0;
    if (override && override.target === 0 && overrideLevel < 0.001) this.override = undefined;
    // The override replaces the emotional baseline as it fades in, and gives it back as it fades out.
    for (const [name, entry] of this.baseline) raise(name, entry.current * (1 - overrideLevel));
    for (const [name, value] of Object.entries(this.overlayWeights(delta))) raise(name, value * (1 - overrideLevel));
    for (const [name, value] of Object.entries(this.cueWeights(frame))) raise(name, value);
    if (override) for (const [name, value] of Object.entries(override.weights)) raise(name, value * overrideLevel);
    for (const [name, entry] of this.visemes) {
      entry.current = this.speaking ? entry.target : ease(entry.current, entry.target, VISEME_RATE, delta);
      raise(name, entry.current);
    }
    this.applyEyes(weights, delta);
    this.write(weights);
  }

  private applyEyes(weights: Map<string, number>, delta: number): void {
    const blinkName = resolveKey(this.persona, 'eyes_closed');
    const held = Math.min(EYES_CLOSED_MAX, weights.get(blinkName) ?? 0);
    weights.set(blinkName, Math.max(held, this.eyes.update(delta, held)));
  }

  private overlayWeights(delta: number): Weights {
    const overlay = this.overlay;
    if (!overlay) return {};
    if (overlay.startsIn > 0) {
      overlay.startsIn -= delta;
      return {};
    }
    overlay.remaining -= delta;
    if (overlay.remaining <= 0) {
      this.overlay = undefined;
      return {};
    }
    const elapsed = overlay.total - overlay.remaining;
    const level = Math.min(1, elapsed / OVERLAY_RAMP_S, overlay.remaining / OVERLAY_RAMP_S);
    return Object.fromEntries(Object.entries(overlay.weights).map(([name, weight]) => [name, weight * level]));
  }

  private cueWeights(frame: { file: string; frame: number } | undefined): Weights {
    if (!this.cues || !frame || frame.file !== this.cues.file) return {};
    const result: Weights = {};
    const active = this.cues.list.filter((cue) => frame.frame >= cue.start_frame && frame.frame <= cue.end_frame);
    active.sort((a, b) => (a.priority ?? 0) - (b.priority ?? 0));
    // Higher priority cues are applied last, so they win on a shared blend shape.
    for (const cue of active) {
      for (const [key, weight] of Object.entries(cue.targets)) result[resolveKey(this.persona, key)] = Math.min(1, Math.max(0, weight));
    }
    return result;
  }

  private write(weights: Map<string, number>): void {
    const manager = this.vrm.expressionManager;
    if (!manager) return;
    for (const name of this.touched) if (!weights.has(name)) manager.setValue(name, 0);
    this.touched.clear();
    for (const [name, value] of weights) {
      if (!manager.getExpression(name)) continue;
      manager.setValue(name, Math.min(1, Math.max(0, value)));
      this.touched.add(name);
    }
  }
}
