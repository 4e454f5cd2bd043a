/**
 * Automatic blinks and saccades. Both pause while the eyes are held more than half closed (an emotion or
 * a sleepy face), so a blink never reopens eyes the face wants shut.
 */
import type { VRM } from '@pixiv/three-vrm';
import { type Camera, Object3D } from 'three';

const BLINK_CLOSE_S = 0.06;
const BLINK_OPEN_S = 0.1;
const SUSPEND_ABOVE = 0.5;

function between(min: number, max: number): number {
  return min + Math.random() * (max - min);
}

export class Eyes {
  /** About one blink every 3 to 4 s by default, as the spec asks; animation_state.blink may change it. */
  blinkRate = 3.5;
  blinkAuto = true;
  saccadeRate = 1.6;
  saccadeAuto = true;
  private untilBlink = between(3, 4);
  private blinkPhase = -1;
  private untilSaccade = between(0.8, 2.4);
  private readonly gaze = new Object3D();

  constructor(vrm: VRM, camera: Camera) {
    camera.add(this.gaze);
    if (vrm.lookAt) vrm.lookAt.target = this.gaze;
  }

  /** Eyes back to the viewer and open, for a play targeted at this window (`reset_eyes`). */
  reset(): void {
    this.gaze.position.set(0, 0, 0);
    this.blinkPhase = -1;
    this.untilBlink = between(this.blinkRate - 0.5, this.blinkRate + 0.5);
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
      this.untilBlink = between(this.blinkRate - 0.5, this.blinkRate + 0.5);
      return 0;
    }
    return this.blinkPhase < BLINK_CLOSE_S ? this.blinkPhase / BLINK_CLOSE_S : 1 - (this.blinkPhase - BLINK_CLOSE_S) / BLINK_OPEN_S;
  }

  /** Small quick gaze jumps around the viewer's face (the gaze target hangs in front of the camera). */
  private updateSaccade(delta: number): void {
    if (!this.saccadeAuto) return;
    this.untilSaccade -= delta;
    if (this.untilSaccade > 0) return;
    this.untilSaccade = between(this.saccadeRate * 0.5, this.saccadeRate * 1.5);
    this.gaze.position.set(between(-0.08, 0.08), between(-0.05, 0.05), 0);
  }
}
