/**
 * The face: flat eyes, brows and mouth just in front of the head's front plane, with one morph target per
 * VRM expression. Each target is a function of a feature point, so the shapes stay symmetric and readable.
 */
import { MeshBuilder, type Influence, type Vertex } from './mesh-builder.ts';
import type { Vec3 } from './skeleton.ts';

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

type Morphs = Partial<Record<Expression, Vec3>>;

/** The head's front plane (see avatar-body) plus small offsets so layers never fight for depth. */
const FRONT = 0.095;
const HEAD: Influence[] = [{ bone: 'head', weight: 1 }];
const EYE_Y = 1.525;
const EYE_X = 0.042;
const MOUTH_Y = 1.47;

type EyeSide = 1 | -1;

/** Eye features collapse onto a line slightly below the centre: a closed eye drawn as a dark stroke. */
function closed(dx: number, dy: number, shrinkX: number): Vec3 {
  return [-dx * shrinkX, -0.004 - dy * 0.92, 0];
}

function eyeWhiteMorphs(side: EyeSide, dx: number, dy: number): Morphs {
  const blinkThis = closed(dx, dy, 0.45);
  return {
    happy: [0, 0.003 - dy * 0.65, 0],
    relaxed: [0, dy > 0 ? -dy * 0.5 : 0, 0],
    sad: [0, dy > 0 ? -dy * 0.3 : dy * 0.1, 0],
    angry: [0, dy > 0 ? -dy * 0.4 : 0, 0],
    surprised: [dx * 0.15, dy * 0.25, 0],
    blink: blinkThis,
    [side === 1 ? 'blinkLeft' : 'blinkRight']: blinkThis,
  };
}

/** `dy` is measured from the eye's centre, not the iris's, so the iris follows the lids of its white. */
function irisMorphs(side: EyeSide, dx: number, dy: number): Morphs {
  const lidShare = eyeWhiteMorphs(side, dx, dy);
  const blinkThis = closed(dx, dy, 0.05);
  return {
    happy: lidShare.happy ?? [0, 0, 0],
    relaxed: lidShare.relaxed ?? [0, 0, 0],
    sad: lidShare.sad ?? [0, 0, 0],
    angry: lidShare.angry ?? [0, 0, 0],
    blink: blinkThis,
    [side === 1 ? 'blinkLeft' : 'blinkRight']: blinkThis,
    // The character's left is +X.
    lookLeft: [0.006, 0, 0],
    lookRight: [-0.006, 0, 0],
    lookUp: [0, 0.006, 0],
    lookDown: [0, -0.006, 0],
  };
}

function ellipse(cx: number, cy: number, rx: number, ry: number, z: number): Array<[number, number, Vec3]> {
  return Array.from({ length: 8 }, (_, i) => {
    const a = (i / 8) * Math.PI * 2;
    const dx = Math.cos(a) * rx;
    const dy = Math.sin(a) * ry;
    return [dx, dy, [cx + dx, cy + dy, z]];
  });
}

function eye(b: MeshBuilder, side: EyeSide): void {
  const cx = side * EYE_X;
  const white = ellipse(cx, EYE_Y, 0.017, 0.021, FRONT + 0.0015);
  b.polygon(
    'eyeWhite',
    white.map(([dx, dy, p]) => ({ position: p, skin: HEAD, morphs: eyeWhiteMorphs(side, dx, dy) })),
    [0, 0, 1],
  );
  const iris = ellipse(cx, EYE_Y - 0.001, 0.0105, 0.0145, FRONT + 0.0025);
  b.polygon(
    'iris',
    iris.map(([dx, dy, p]) => ({ position: p, skin: HEAD, morphs: irisMorphs(side, dx, dy - 0.001) })),
    [0, 0, 1],
  );
}

function brow(b: MeshBuilder, side: EyeSide): void {
  // inner-bottom, inner-top, outer-top, outer-bottom; `inner` marks the end near the nose.
  const points: Array<[number, number, boolean]> = [
    [0.024, 1.553, true],
    [0.024, 1.5595, true],
    [0.064, 1.557, false],
    [0.064, 1.551, false],
  ];
  const vertices: Vertex[] = points.map(([x, y, inner]) => ({
    position: [side * x, y, FRONT + 0.002],
    skin: HEAD,
    morphs: {
      angry: [0, inner ? -0.006 : 0.002, 0],
      sad: [0, inner ? 0.005 : -0.002, 0],
      surprised: [0, 0.008, 0],
      happy: [0, 0.003, 0],
    },
  }));
  b.polygon('hair', vertices, [0, 0, 1]);
}

const COLUMNS = [-0.024, -0.012, 0, 0.012, 0.024];
/** Vertical deltas per column for [top lip, bottom lip]; corners first and last. */
type Lips = [number[], number[]];
const MOUTH_SHAPES: Partial<Record<Expression, { lips: Lips; widen: number }>> = {
  aa: {
    lips: [
      [0, 0.002, 0.003, 0.002, 0],
      [-0.004, -0.013, -0.017, -0.013, -0.004],
    ],
    widen: -0.05,
  },
  ih: {
    lips: [
      [0, 0.001, 0.001, 0.001, 0],
      [-0.001, -0.004, -0.005, -0.004, -0.001],
    ],
    widen: 0.17,
  },
  ou: {
    lips: [
      [0.002, 0.003, 0.003, 0.003, 0.002],
      [-0.003, -0.007, -0.008, -0.007, -0.003],
    ],
    widen: -0.55,
  },
  ee: {
    lips: [
      [0, 0.001, 0.0015, 0.001, 0],
      [-0.001, -0.006, -0.007, -0.006, -0.001],
    ],
    widen: 0.25,
  },
  oh: {
    lips: [
      [0.002, 0.003, 0.003, 0.003, 0.002],
      [-0.006, -0.011, -0.013, -0.011, -0.006],
    ],
    widen: -0.3,
  },
  happy: {
    lips: [
      [0.006, 0.002, 0, 0.002, 0.006],
      [0.006, 0.001, -0.002, 0.001, 0.006],
    ],
    widen: 0.12,
  },
  relaxed: {
    lips: [
      [0.003, 0.001, 0, 0.001, 0.003],
      [0.003, 0.001, 0, 0.001, 0.003],
    ],
    widen: 0.05,
  },
  sad: {
    lips: [
      [-0.005, -0.002, 0, -0.002, -0.005],
      [-0.005, -0.002, 0, -0.002, -0.005],
    ],
    widen: -0.05,
  },
  angry: {
    lips: [
      [-0.003, -0.001, 0, -0.001, -0.003],
      [-0.003, -0.002, -0.001, -0.002, -0.003],
    ],
    widen: -0.12,
  },
  surprised: {
    lips: [
      [0.002, 0.004, 0.004, 0.004, 0.002],
      [-0.006, -0.012, -0.014, -0.012, -0.006],
    ],
    widen: -0.35,
  },
};
const REST_LIP = [0.0005, 0.0015, 0.0018, 0.0015, 0.0005];

function lipVertex(column: number, lip: 0 | 1): Vertex {
  const x = COLUMNS[column] as number;
  const sign = lip === 0 ? 1 : -1;
  const morphs: Morphs = {};
  for (const [name, shape] of Object.entries(MOUTH_SHAPES)) {
    morphs[name as Expression] = [x * shape.widen, shape.lips[lip][column] as number, 0];
  }
  return { position: [x, MOUTH_Y + sign * (REST_LIP[column] as number), FRONT + 0.0015], skin: HEAD, morphs };
}

function mouth(b: MeshBuilder): void {
  // One quad per column pair keeps every piece convex whichever way the corners move.
  for (let c = 0; c + 1 < COLUMNS.length; c++) {
    b.polygon('mouth', [lipVertex(c, 0), lipVertex(c + 1, 0), lipVertex(c + 1, 1), lipVertex(c, 1)], [0, 0, 1]);
  }
}

export function buildFace(): MeshBuilder {
  const b = new MeshBuilder();
  for (const side of [1, -1] as const) {
    eye(b, side);
    brow(b, side);
  }
  mouth(b);
  return b;
}
