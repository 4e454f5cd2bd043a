/**
 * Big anime eyes (white, iris, pupil, highlights, upper lash) and brows. Expressions reshape the lids;
 * whatever lies inside an eye is clipped to the reshaped lids, so closing lids cover the iris.
 */
import type { Expression } from './avatar-face.ts';
import { bump, type Point, range, type Shapes, strip, type StripPoint } from './face-strip.ts';
import type { MeshBuilder } from './mesh-builder.ts';

export type Side = 1 | -1;
const EYE = { inner: 0.024, outer: 0.066, y: 1.52, up: 0.019, down: 0.0135 };
const EYE_COLUMNS = 15;

interface Lids {
  upper: number;
  lower: number;
}

/** The open eye: a high, flat-topped upper lid and a shallow lower one; t runs from inner to outer corner. */
function restLids(t: number): Lids {
  return { upper: EYE.y + 0.002 * t + EYE.up * bump(t, 0.45), lower: EYE.y - EYE.down * bump(t, 0.75) };
}

const closedLine = (t: number) => EYE.y - 0.005 * bump(t) + 0.002 * t;
/** How each expression reshapes the lids (side is the eye's side, for the one-eyed blinks). */
const LID_SHAPES: Partial<Record<Expression, (t: number, lids: Lids, side: Side) => Lids | undefined>> = {
  blink: (t) => ({ upper: closedLine(t), lower: closedLine(t) }),
  blinkLeft: (t, _l, side) => (side === 1 ? { upper: closedLine(t), lower: closedLine(t) } : undefined),
  blinkRight: (t, _l, side) => (side === -1 ? { upper: closedLine(t), lower: closedLine(t) } : undefined),
  // Closed in an upward arch: the "^ ^" of a beaming smile.
  happy: (t) => {
    const arch = EYE.y - 0.003 + 0.0095 * bump(t, 0.8);
    return { upper: arch, lower: arch - 0.0008 };
  },
  relaxed: (_t, { upper, lower }) => ({ upper: lower + 0.38 * (upper - lower), lower }),
  sad: (t, { upper, lower }) => ({ upper: upper - (upper - lower) * (0.12 + 0.3 * t), lower: lower + 0.0015 }),
  angry: (t, { upper, lower }) => ({ upper: upper - (upper - lower) * (0.1 + 0.42 * (1 - t)), lower: lower + 0.002 }),
  surprised: (t, { upper, lower }) => ({ upper: upper + 0.0035 * bump(t), lower: lower - 0.003 * bump(t) }),
};

const eyeX = (side: Side, t: number) => side * (EYE.inner + (EYE.outer - EYE.inner) * t);
const eyeT = (side: Side, x: number) => (side * x - EYE.inner) / (EYE.outer - EYE.inner);

function lidsFor(expression: Expression | 'rest', side: Side, t: number): Lids {
  const rest = restLids(t);
  if (expression === 'rest') return rest;
  return LID_SHAPES[expression]?.(t, rest, side) ?? rest;
}

function eyeWhite(b: MeshBuilder, side: Side): void {
  const columns = range(EYE_COLUMNS, 0, 1).map((t) => {
    const x = eyeX(side, t);
    const point = (edge: keyof Lids): StripPoint => {
      const shapes: Shapes = {};
      for (const name of Object.keys(LID_SHAPES) as Expression[]) shapes[name] = [x, lidsFor(name, side, t)[edge]];
      return { rest: [x, lidsFor('rest', side, t)[edge]], shapes };
    };
    return [point('upper'), point('lower')] as const;
  });
  strip(b, 'eyeWhite', columns, 0.001);
}

/** The upper lash: a dark band riding on the upper lid, thicker and winged at the outer corner. */
function lash(b: MeshBuilder, side: Side): void {
  const columns = range(EYE_COLUMNS + 2, -0.03, 1.1).map((t) => {
    const inside = Math.min(1, Math.max(0, t));
    const x = eyeX(side, t);
    const wing = t > 1 ? (t - 1) * 0.04 : 0;
    const thickness = 0.0012 + 0.0036 * Math.min(1, inside * 1.6) ** 0.7 - (t > 1 ? (t - 1) * 0.02 : 0);
    const point = (above: number): StripPoint => {
      const shapes: Shapes = {};
      for (const name of Object.keys(LID_SHAPES) as Expression[]) {
        shapes[name] = [x, lidsFor(name, side, inside).upper + above + wing];
      }
      return { rest: [x, lidsFor('rest', side, inside).upper + above + wing], shapes };
    };
    return [point(thickness), point(0)] as const;
  });
  strip(b, 'lash', columns, 0.0022, 1);
}

interface Disc {
  /** Centre relative to the eye's centre. */
  dx: number;
  dy: number;
  rx: number;
  ry: number;
}

const LOOK: Partial<Record<Expression, Point>> = { lookLeft: [0.0055, 0], lookRight: [-0.0055, 0], lookUp: [0, 0.005], lookDown: [0, -0.005] };

/**
 * An ellipse inside the eye (iris, pupil, highlight), clipped by the lids of each expression; the look*
 * expressions slide it, surprise shrinks it.
 */
function insideEye(b: MeshBuilder, side: Side, material: string, disc: Disc, lift: number): void {
  const cx = eyeX(side, 0.5) + side * disc.dx;
  const cy = EYE.y + disc.dy;
  const clip = (expression: Expression | 'rest', x: number, y: number) => {
    const lids = lidsFor(expression, side, Math.min(1, Math.max(0, eyeT(side, x))));
    return Math.min(lids.upper, Math.max(lids.lower, y));
  };
  const columns = range(13, -1, 1).map((u) => {
    const x = cx + u * disc.rx;
    const half = disc.ry * Math.sqrt(Math.max(0, 1 - u * u));
    const point = (sign: 1 | -1): StripPoint => {
      const y = cy + sign * half;
      const shapes: Shapes = {};
      for (const name of Object.keys(LID_SHAPES) as Expression[]) {
        const scale = name === 'surprised' ? 0.82 : 1;
        const sx = cx + (x - cx) * scale;
        shapes[name] = [sx, clip(name, sx, cy + (y - cy) * scale)];
      }
      for (const [name, [mx, my]] of Object.entries(LOOK) as Array<[Expression, Point]>) shapes[name] = [x + mx, clip('rest', x + mx, y + my)];
      return { rest: [x, clip('rest', x, y)], shapes };
    };
    return [point(1), point(-1)] as const;
  });
  strip(b, material, columns, lift);
}

export function eye(b: MeshBuilder, side: Side): void {
  eyeWhite(b, side);
  insideEye(b, side, 'iris', { dx: 0, dy: 0.0015, rx: 0.0125, ry: 0.0165 }, 0.0015);
  insideEye(b, side, 'pupil', { dx: 0, dy: 0.0005, rx: 0.0062, ry: 0.0095 }, 0.0019);
  // The highlight sits on the same side of both eyes: the light comes from one place.
  insideEye(b, side, 'eyeWhite', { dx: -side * 0.0045, dy: 0.007, rx: 0.0036, ry: 0.0042 }, 0.0023);
  insideEye(b, side, 'eyeWhite', { dx: side * 0.005, dy: -0.006, rx: 0.0017, ry: 0.0017 }, 0.0023);
  lash(b, side);
}

const BROW_MOVES: Partial<Record<Expression, (t: number) => number>> = {
  angry: (t) => -0.008 * (1 - t) + 0.002 * t,
  sad: (t) => 0.006 * (1 - t) - 0.002 * t,
  surprised: () => 0.0055,
  happy: () => 0.0025,
  relaxed: () => -0.001,
};

export function brow(b: MeshBuilder, side: Side): void {
  const columns = range(9, 0, 1).map((t) => {
    const x = side * (0.026 + 0.042 * t);
    const middle = 1.556 + 0.0045 * bump(t * 0.9) - 0.003 * t;
    const half = 0.0023 * (1 - 0.5 * t) * (t < 0.1 ? 0.6 + 4 * t : 1);
    const point = (sign: 1 | -1): StripPoint => {
      const y = middle + sign * half;
      const shapes: Shapes = {};
      for (const [name, move] of Object.entries(BROW_MOVES) as Array<[Expression, (t: number) => number]>) shapes[name] = [x, y + move(t)];
      return { rest: [x, y], shapes };
    };
    return [point(1), point(-1)] as const;
  });
  strip(b, 'brow', columns, 0.0014, 1);
}
