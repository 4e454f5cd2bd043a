/**
 * The mouth: a dark opening between two lips, with teeth under the upper lip and a tongue on the lower
 * one that show only as far as the mouth opens beyond its resting gap.
 */
import type { Expression } from './avatar-face.ts';
import { type Point, range, round, type Shapes, strip, type StripPoint } from './face-strip.ts';
import type { MeshBuilder } from './mesh-builder.ts';

const MOUTH = { y: 1.459, half: 0.0145 };

interface Lips {
  upper: number;
  lower: number;
  /** Horizontal stretch of the mouth. */
  width: number;
}

const restLips = (s: number): Lips => ({
  upper: MOUTH.y + 0.0012 * (1 - s * s) + 0.0022 * s * s,
  lower: MOUTH.y - 0.0012 * (1 - s * s) + 0.0022 * s * s,
  width: 1,
});

const flat = (s: number) => Math.max(0, 1 - s ** 4);
const open = (s: number, up: number, down: number, width: number, profile: (s: number) => number, corners = 0): Lips => {
  const rest = restLips(s);
  return { upper: rest.upper + up * profile(s) + corners * s * s, lower: rest.lower - down * profile(s) + corners * s * s, width };
};

/** Mouth shapes: the five VRM visemes, then the emotions. Sizes in metres on a face about 0.2 m wide. */
const MOUTH_SHAPES: Partial<Record<Expression, (s: number) => Lips>> = {
  aa: (s) => open(s, 0.004, 0.03, 1.15, (v) => (1 - v * v) ** 0.7),
  ih: (s) => open(s, 0.0025, 0.011, 1.4, flat),
  ou: (s) => open(s, 0.0065, 0.017, 0.62, round),
  ee: (s) => open(s, 0.0035, 0.015, 1.45, flat),
  oh: (s) => open(s, 0.0065, 0.025, 0.85, round),
  happy: (s) => open(s, 0.0005, 0.018, 1.4, (v) => (1 - v * v) ** 0.85, 0.005),
  relaxed: (s) => open(s, 0, 0, 1.2, flat, 0.0035),
  sad: (s) => open(s, 0, 0, 0.85, flat, -0.0065),
  angry: (s) => open(s, 0.0005, 0.005, 0.85, flat, -0.004),
  surprised: (s) => open(s, 0.006, 0.02, 0.62, round),
};

function lipsFor(expression: Expression | 'rest', s: number): Lips {
  return (expression === 'rest' ? undefined : MOUTH_SHAPES[expression]?.(s)) ?? restLips(s);
}

/**
 * A band of the mouth between two fractions of its opening, measured from its lower (`from: 'lower'`) or
 * upper lip. Only the opening beyond the resting gap counts, so teeth and tongue vanish when it is shut.
 */
function mouthBand(b: MeshBuilder, material: string, span: number, band: { from: 'lower' | 'upper'; share: number } | null, lift: number): void {
  const rest = (s: number) => lipsFor('rest', s);
  const pointFor = (expression: Expression | 'rest', s: number, edge: 'near' | 'far'): Point => {
    const lips = lipsFor(expression, s);
    const x = s * MOUTH.half * lips.width;
    if (!band) return [x, edge === 'near' ? lips.upper : lips.lower];
    const extra = lips.upper - lips.lower - (rest(s).upper - rest(s).lower);
    const base = band.from === 'lower' ? lips.lower : lips.upper;
    const sign = band.from === 'lower' ? 1 : -1;
    return [x, edge === 'near' ? base : base + sign * band.share * extra];
  };
  const columns = range(15, -span, span).map((s) => {
    const point = (edge: 'near' | 'far'): StripPoint => {
      const shapes: Shapes = {};
      for (const name of Object.keys(MOUTH_SHAPES) as Expression[]) shapes[name] = pointFor(name, s, edge);
      return { rest: pointFor('rest', s, edge), shapes };
    };
    return [point('near'), point('far')] as const;
  });
  strip(b, material, columns, lift);
}

export function mouth(b: MeshBuilder): void {
  mouthBand(b, 'mouth', 1, null, 0.001);
  mouthBand(b, 'tongue', 0.72, { from: 'lower', share: 0.38 }, 0.0014);
  mouthBand(b, 'eyeWhite', 0.8, { from: 'upper', share: 0.2 }, 0.0014);
}
