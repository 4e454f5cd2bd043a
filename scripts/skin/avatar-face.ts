/**
 * The face, drawn onto the head's skin: eyes and brows (face-eyes), the mouth (face-mouth), blush and a
 * hint of a nose, with one morph target per VRM expression.
 */
import { brow, eye, type Side } from './face-eyes.ts';
import { mouth } from './face-mouth.ts';
import { type Point, range, round, strip, type StripPoint } from './face-strip.ts';
import { MeshBuilder } from './mesh-builder.ts';

export const EXPRESSIONS = [
  'happy',
  'angry',
  'sad',
  'relaxed',
  'surprised',
  'aa',
  'ih',
  'ou',
  'ee',
  'oh',
  'blink',
  'blinkLeft',
  'blinkRight',
  'lookUp',
  'lookDown',
  'lookLeft',
  'lookRight',
] as const;

export type Expression = (typeof EXPRESSIONS)[number];

/** Blush that grows out of nothing on a happy (and, fainter, a relaxed) face. */
function blush(b: MeshBuilder, side: Side): void {
  const [cx, cy] = [side * 0.058, 1.488];
  const columns = range(11, -1, 1).map((u) => {
    const point = (sign: 1 | -1): StripPoint => {
      const target: Point = [cx + u * 0.015, cy + sign * 0.0055 * round(u)];
      const toward = (share: number): Point => [cx + (target[0] - cx) * share, cy + (target[1] - cy) * share];
      return { rest: [cx, cy], shapes: { happy: target, relaxed: toward(0.6) } };
    };
    return [point(1), point(-1)] as const;
  });
  strip(b, 'blush', columns, 0.0008, 2);
}

function nose(b: MeshBuilder): void {
  const columns = range(5, -1, 1).map((u) => {
    const point = (y: number): StripPoint => ({ rest: [u * 0.0032, y], shapes: {} });
    return [point(1.4915 - 0.0008 * u * u), point(1.4895 - 0.0015 * (1 - u * u))] as const;
  });
  strip(b, 'nose', columns, 0.0008, 1);
}

export function buildFace(): MeshBuilder {
  const b = new MeshBuilder();
  for (const side of [1, -1] as const) {
    eye(b, side);
    brow(b, side);
    blush(b, side);
  }
  mouth(b);
  nose(b);
  return b;
}
