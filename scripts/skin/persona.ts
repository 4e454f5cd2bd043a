/**
 * The skin's persona file: how logical face keys, speech visemes and emotions map onto this avatar's
 * expressions. Viseme letters are those of the lip-sync data (A-H, X for closed).
 */
import type { Expression } from './avatar-face.ts';

type Weights = Partial<Record<Expression, number>>;

const EMOTIONS: Record<string, Weights> = {
  neutral: { happy: 0, angry: 0, sad: 0, relaxed: 0, surprised: 0 },
  happy: { happy: 0.8 },
  sad: { sad: 0.75 },
  angry: { angry: 0.7 },
  surprised: { surprised: 0.85 },
  relaxed: { relaxed: 0.7 },
};

const VISEMES: Record<string, Weights> = {
  A: {},
  B: { ih: 0.5 },
  C: { ee: 0.7 },
  D: { aa: 1 },
  E: { oh: 0.8 },
  F: { ou: 0.9 },
  G: { ih: 0.3 },
  H: { aa: 0.4 },
  X: {},
};

const BLENDSHAPE_MAP: Record<string, Expression> = {
  eyes_closed: 'blink',
  eye_closed_left: 'blinkLeft',
  eye_closed_right: 'blinkRight',
  mouth_open: 'aa',
  smile: 'happy',
  look_up: 'lookUp',
  look_down: 'lookDown',
  look_left: 'lookLeft',
  look_right: 'lookRight',
};

export const PERSONA = {
  blendshape_map: { ...BLENDSHAPE_MAP, visemes: VISEMES },
  emotions: EMOTIONS,
  // Fraction of the remaining distance to the target face covered per second: toward an emotion, and back.
  emotion_speed: { default: 4, decay: 1.5 },
};
