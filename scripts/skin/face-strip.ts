/**
 * Face features as strips between an upper and a lower contour, laid onto the head's skin. A feature point
 * has a rest position and one position per expression that moves it; the morph is the difference of the
 * two points on the skin, so features slide over the curved face instead of off it.
 */
import type { Expression } from './avatar-face.ts';
import { headSurface } from './avatar-head.ts';
import type { BuiltVertex, Influence, MeshBuilder, Triangle } from './mesh-builder.ts';
import type { Vec3 } from './skeleton.ts';
import { normalize, sub } from './vec.ts';

const HEAD: Influence[] = [{ bone: 'head', weight: 1 }];

/** A 2D point on the face (x to the character's left, y up), before it is laid onto the skin. */
export type Point = readonly [number, number];
/** Where a feature point goes for each expression that moves it. */
export type Shapes = Partial<Record<Expression, Point>>;

export interface StripPoint {
  rest: Point;
  shapes: Shapes;
}

/**
 * Lays a strip of upper/lower point pairs onto the skin, `lift` metres out, with morphs per expression.
 * Each column is cut into rows laid on the skin one by one: a single flat quad from lip to lip would sink
 * under the curved chin.
 */
export function strip(b: MeshBuilder, material: string, columns: ReadonlyArray<readonly [StripPoint, StripPoint]>, lift: number, rows = 4): void {
  const vertices: BuiltVertex[] = columns.flatMap(([upper, lower]) => range(rows + 1, 0, 1).map((t) => onSkin(between(upper, lower, t), lift)));
  const triangles: Triangle[] = [];
  const at = (column: number, row: number) => column * (rows + 1) + row;
  for (let i = 0; i + 1 < columns.length; i++) {
    for (let r = 0; r < rows; r++) {
      const [u0, l0, u1, l1] = [at(i, r), at(i, r + 1), at(i + 1, r), at(i + 1, r + 1)];
      triangles.push(facing(vertices, [u0, l0, l1]), facing(vertices, [u0, l1, u1]));
    }
  }
  b.add(material, vertices, triangles);
}

/** The point `t` of the way from `a` to `b`, at rest and in every expression either of them has. */
function between(a: StripPoint, b: StripPoint, t: number): StripPoint {
  const mix = (p: Point, q: Point): Point => [p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t];
  const shapes: Shapes = {};
  for (const name of new Set([...Object.keys(a.shapes), ...Object.keys(b.shapes)]) as Set<Expression>) {
    shapes[name] = mix(a.shapes[name] ?? a.rest, b.shapes[name] ?? b.rest);
  }
  return { rest: mix(a.rest, b.rest), shapes };
}

function onSkin(p: StripPoint, lift: number): BuiltVertex {
  const position = headSurface(p.rest[0], p.rest[1], lift);
  const morphs: Record<string, Vec3> = {};
  for (const [name, [x, y]] of Object.entries(p.shapes) as Array<[Expression, Point]>) {
    const delta = sub(headSurface(x, y, lift), position);
    if (delta.some((c) => Math.abs(c) > 1e-7)) morphs[name] = delta;
  }
  const normal = normalize(sub(headSurface(p.rest[0], p.rest[1], lift + 1), position));
  return { position, normal, skin: HEAD, morphs };
}

/** Winds a triangle toward the viewer in front of the face (+Z). */
function facing(vertices: readonly BuiltVertex[], [a, b, c]: Triangle): Triangle {
  const [pa, pb, pc] = [a, b, c].map((i) => (vertices[i] as BuiltVertex).position) as [Vec3, Vec3, Vec3];
  const z = (pb[0] - pa[0]) * (pc[1] - pa[1]) - (pb[1] - pa[1]) * (pc[0] - pa[0]);
  return z >= 0 ? [a, b, c] : [a, c, b];
}

export const range = (n: number, from: number, to: number) => Array.from({ length: n }, (_, i) => from + ((to - from) * i) / (n - 1));
export const bump = (t: number, power = 1) => Math.sin(Math.PI * Math.min(1, Math.max(0, t))) ** power;
/** Half height of a unit circle at `s` in [-1, 1]: round shapes of mouths and blush. */
export const round = (s: number) => Math.sqrt(Math.max(0, 1 - s * s));
