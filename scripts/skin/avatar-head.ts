/**
 * The head: a smooth anime-proportioned skull (big cranium, small chin), a bob haircut with pointed bangs
 * and a small ahoge, and `headSurface`, which the face uses to lay its features onto the skin.
 */
import { densify, loft, type Ring } from './loft.ts';
import { type Influence, type MeshBuilder, smoothNormals, type Triangle } from './mesh-builder.ts';
import type { Vec3 } from './skeleton.ts';
import { add, cross, dot, normalize, scale, sub } from './vec.ts';

const HEAD: Influence[] = [{ bone: 'head', weight: 1 }];
const X: Vec3 = [1, 0, 0];
const Z: Vec3 = [0, 0, 1];
const STEPS = 4;
const SEGMENTS = 40;

/** [y, half width, half depth, centre z]: chin to crown. */
const PROFILE: Array<[number, number, number, number]> = [
  [1.418, 0.012, 0.012, 0.035],
  [1.428, 0.035, 0.03, 0.03],
  [1.445, 0.06, 0.055, 0.018],
  [1.47, 0.08, 0.075, 0.008],
  [1.5, 0.095, 0.088, 0.002],
  [1.54, 0.104, 0.097, -0.002],
  [1.585, 0.107, 0.1, -0.006],
  [1.63, 0.1, 0.095, -0.01],
  [1.665, 0.078, 0.076, -0.012],
  [1.688, 0.04, 0.04, -0.013],
];
/** The skull's key rings, for checks that hands stay outside it. */
export const HEAD_PROFILE = PROFILE.map(([y, w, d, z]) => ({ y, w, d, z }));
const RINGS: Ring[] = PROFILE.map(([y, w, d, z]) => ({ center: [0, y, z], w, d, skin: HEAD }));
const DENSE = densify(RINGS, STEPS);
export const CROWN_Y = 1.694;

export function head(b: MeshBuilder): void {
  loft(b, { frame: { w: X, d: Z }, rings: RINGS, material: 'skin', segments: SEGMENTS, steps: STEPS, caps: { start: 0.004, end: 0.006 } });
}

/** The head's cross-section at height `y` (linear between generated rings, as the mesh is). */
function sectionAt(y: number): { w: number; d: number; z: number } {
  const clamped = Math.min(Math.max(y, DENSE[0]?.center[1] ?? y), DENSE[DENSE.length - 1]?.center[1] ?? y);
  for (let i = 0; i + 1 < DENSE.length; i++) {
    const a = DENSE[i] as Ring;
    const b = DENSE[i + 1] as Ring;
    if (clamped <= b.center[1]) {
      const t = (clamped - a.center[1]) / (b.center[1] - a.center[1] || 1);
      return { w: a.w + (b.w - a.w) * t, d: a.d + (b.d - a.d) * t, z: a.center[2] + (b.center[2] - a.center[2]) * t };
    }
  }
  const last = DENSE[DENSE.length - 1] as Ring;
  return { w: last.w, d: last.d, z: last.center[2] };
}

/** The front of the skin at (x, y), `lift` metres out along the normal: where face features are drawn. */
export function headSurface(x: number, y: number, lift: number): Vec3 {
  const z = (px: number, py: number) => {
    const s = sectionAt(py);
    return s.z + s.d * Math.sqrt(Math.max(0, 1 - (px / s.w) ** 2));
  };
  const e = 0.0005;
  const normal = normalize([-(z(x + e, y) - z(x - e, y)) / (2 * e), -(z(x, y + e) - z(x, y - e)) / (2 * e), 1]);
  return add([x, y, z(x, y)], scale(normal, lift));
}

/** The skull's surface in direction `a` (0 is the front, a quarter turn the character's left) at height y. */
function around(a: number, y: number): Vec3 {
  // Below the cheekbones the hair hangs straight down instead of following the jaw in.
  const s = sectionAt(Math.max(y, 1.5));
  return [s.w * Math.sin(a), y, s.z + s.d * Math.cos(a)];
}

const HAIR_COLUMNS = 72;
/** Bangs: strands four columns wide (tip, shoulder, gap, shoulder) of varied lengths. */
const STRAND = [1, 0.5, 0, 0.5];
const STRAND_LENGTHS = [0.85, 1, 0.7, 0.95, 0.8, 1, 0.75, 0.9, 1];
const HAIR_ROWS = 15;
const CENTRE: Vec3 = [0, 1.55, -0.01];

/** Where the hair ends in direction `a`: pointed bangs in front, a bob over the ears and nape. */
function hairline(k: number): number {
  const a = (2 * Math.PI * k) / HAIR_COLUMNS;
  const front = Math.cos(a);
  const bob = 1.43;
  const strand = (STRAND[k % STRAND.length] as number) * (STRAND_LENGTHS[Math.floor(k / STRAND.length) % STRAND_LENGTHS.length] as number);
  const fringe = 1.587 - 0.026 * strand * Math.min(1, Math.max(0, (front - 0.55) / 0.2));
  // Past ~55 degrees from the front the hair drops from the fringe to the bob.
  const share = Math.min(1, Math.max(0, (front - 0.45) / 0.25));
  return bob + (fringe - bob) * share;
}

/** Rows of one column of hair, [height, thickness], from inside the hanging part up over the crown. */
function hairColumn(k: number): Array<[number, number]> {
  const bottom = hairline(k);
  // Where hair hangs below the skull it gets an inner side too, so the bob is a solid, not an open shell.
  const innerTop = Math.max(bottom, 1.5) + 0.01;
  const inner = range(INNER_ROWS, innerTop, bottom).map((y): [number, number] => [y, 0]);
  const outer = range(HAIR_ROWS, 0, 1).map((t): [number, number] => [
    bottom + (CROWN_Y - bottom) * (1 - (1 - t) ** 1.6),
    0.005 + 0.011 * Math.sqrt(t) * (1 - 0.5 * t ** 4),
  ]);
  return [...inner, ...outer];
}

/** The hair: one closed surface from the inner side of the bob, round its ends and over the crown. */
export function hair(b: MeshBuilder): void {
  const columns = Array.from({ length: HAIR_COLUMNS }, (_, k) => hairColumn(k));
  const rows = (columns[0] as Array<[number, number]>).length;
  const positions: Vec3[] = columns.flatMap((column, k) => {
    const a = (2 * Math.PI * k) / HAIR_COLUMNS;
    return column.map(([y, thickness]) => {
      const skin = around(a, y);
      return add(skin, scale(normalize(sub(skin, CENTRE)), thickness + 0.0015));
    });
  });
  // The crown closes on one point above the skull's pole.
  const crown = positions.push([0, CROWN_Y + 0.016, -0.013]) - 1;
  const triangles: Triangle[] = [];
  for (let k = 0; k < HAIR_COLUMNS; k++) {
    const next = (k + 1) % HAIR_COLUMNS;
    for (let r = 0; r + 1 < rows; r++) {
      const [p, q, s, t] = [k * rows + r, next * rows + r, next * rows + r + 1, k * rows + r + 1];
      triangles.push([p, q, s], [p, s, t]);
    }
    triangles.push([k * rows + rows - 1, next * rows + rows - 1, crown]);
  }
  // One winding for the whole closed surface, chosen so the crown's triangles face up.
  const [pa, pb, pc] = (triangles[triangles.length - 1] as Triangle).map((i) => positions[i] as Vec3) as [Vec3, Vec3, Vec3];
  const wound = dot(cross(sub(pb, pa), sub(pc, pa)), [0, 1, 0]) < 0 ? triangles.map(([p, q, s]): Triangle => [p, s, q]) : triangles;
  const normals = smoothNormals(positions, wound);
  b.add(
    'hair',
    positions.map((position, i) => ({ position, normal: normals[i] as Vec3, skin: HEAD })),
    wound,
  );
  ahoge(b);
}

const INNER_ROWS = 4;
const range = (n: number, from: number, to: number) => Array.from({ length: n }, (_, i) => from + ((to - from) * i) / (n - 1));

/** The single upright curl on top that anime characters wear. */
function ahoge(b: MeshBuilder): void {
  const ring = (center: Vec3, w: number, d: number): Ring => ({ center, w, d, skin: HEAD });
  loft(b, {
    frame: { w: X, d: Z },
    rings: [
      ring([0, 1.69, 0.0], 0.008, 0.006),
      ring([0.004, 1.72, 0.012], 0.005, 0.004),
      ring([0.0, 1.734, 0.033], 0.003, 0.0025),
      ring([-0.006, 1.726, 0.047], 0.001, 0.001),
    ],
    material: 'hair',
    segments: 10,
    steps: 4,
    caps: { start: 0, end: 0.001 },
  });
}
