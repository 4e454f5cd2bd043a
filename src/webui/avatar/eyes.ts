/**
 * Automatic blinks and saccades. Both pause while the eyes are held more than half closed (an emotion or
 * a sleepy face), so a blink never reopens eyes the face wants shut.
 */
import type { VRM } from '@pixiv/three-vrm';
import { type Camera, Object3D } from 'three';
import type { AnimationStateInfo } from '../protocol.ts';
import { uniform } from './random.ts';

const BLINK_CLOSE_S = 0.06;
const BLINK_OPEN_S = 0.1;
const SUSPEND_ABOVE = 0.5;
/** About one blink every 3 to 4 s, as the spec asks, when animation_state.blink does not say. */
const DEFAULT_BLINK_RATE_S = 3.5;
const DEFAULT_SACCADE_RATE_S = 1.6;

export class Eyes {
  private blinkRate = DEFAULT_BLINK_RATE_S;
  private blinkAuto = true;
  /** How far a blink closes the eyes. */
  private blinkIntensity = 1;
  private saccadeRate = DEFAULT_SACCADE_RATE_S;
  private saccadeAuto = true;
  private untilBlink = uniform(3, 4);
  private blinkPhase = -1;
  private untilSaccade = uniform(0.8, 2.4);
  private readonly gaze = new Object3D();

  constructor(vrm: VRM, camera: Camera) {
    camera.add(this.gaze);
    if (vrm.lookAt) vrm.lookAt.target = this.gaze;
  }

  /** The blink and eye_movement of a new animation command; what it leaves out returns to the default. */
  configure(blink: AnimationStateInfo['blink'], eyeMovement: AnimationStateInfo['eye_movement']): void {
    this.blinkAuto = blink?.auto !== false;
    this.blinkRate = blink?.rate_s && blink.rate_s > 0 ? blink.rate_s : DEFAULT_BLINK_RATE_S;
    this.blinkIntensity = Math.min(1, Math.max(0, blink?.intensity ?? 1));
    this.saccadeAuto = eyeMovement?.auto !== false;
    this.saccadeRate = eyeMovement?.saccade_rate_s && eyeMovement.saccade_rate_s > 0 ? eyeMovement.saccade_rate_s : DEFAULT_SACCADE_RATE_S;
    // A new rate counts from now, not from a wait drawn at the old one.
    this.untilBlink = Math.min(this.untilBlink, this.nextBlinkIn());
    this.untilSaccade = Math.min(this.untilSaccade, this.nextSaccadeIn());
  }

  /** Eyes back to the viewer and open, for a play targeted at this window (`reset_eyes`). */
  reset(): void {
    this.gaze.position.set(0, 0, 0);
    this.blinkPhase = -1;
    this.untilBlink = this.nextBlinkIn();
  }

  /** Where the eyes look: the gaze target's offset in front of the camera, in metres. */
  gazeOffset(): { x: number; y: number } {
    return { x: this.gaze.position.x, y: this.gaze.position.y };
  }

  /** The blink weight for this frame; `held` is how closed the face keeps the eyes. */
  update(delta: number, held: number): number {
    if (held > SUSPEND_ABOVE) {
      this.blinkPhase = -1;
      return 0;
    }
    this.updateSaccade(delta);
    if (this.blinkPhase < 0) {
      this.untilBlink -= delta;
      if (this.blinkAuto && this.untilBlink <= 0) this.blinkPhase = 0;
      else return 0;
    }
    this.blinkPhase += delta;
    if (this.blinkPhase >= BLINK_CLOSE_S + BLINK_OPEN_S) {
      this.blinkPhase = -1;
      this.untilBlink = this.nextBlinkIn();
      return 0;
    }
    const closed = this.blinkPhase < BLINK_CLOSE_S ? this.blinkPhase / BLINK_CLOSE_S : 1 - (this.blinkPhase - BLINK_CLOSE_S) / BLINK_OPEN_S;
    return closed * this.blinkIntensity;
  }

  private nextBlinkIn(): number {
    return uniform(Math.max(0.2, this.blinkRate - 0.5), this.blinkRate + 0.5);
  }

  private nextSaccadeIn(): number {
    return uniform(this.saccadeRate * 0.5, this.saccadeRate * 1.5);
  }

  /** Small quick gaze jumps around the viewer's face (the gaze target hangs in front of the camera). */
  private updateSaccade(delta: number): void {
    if (!this.saccadeAuto) return;
    this.untilSaccade -= delta;
    if (this.untilSaccade > 0) return;
    this.untilSaccade = this.nextSaccadeIn();
    this.gaze.position.set(uniform(-0.08, 0.08), uniform(-0.05, 0.05), 0);
  }
}
