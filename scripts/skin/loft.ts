/**
 * Lofted solids: superellipse cross-sections swept through a few key rings into one smooth, closed surface.
 * Key rings are joined by Catmull-Rom curves (so a limb has no kinks between them), skin weights blend
 * along the way (so torso, elbows and knees bend as one surface), and the ends close with rounded poles.
 */
import { type Influence, type MeshBuilder, mergeInfluences, smoothNormals, type Triangle, type BuiltVertex } from './mesh-builder.ts';
import type { Vec3 } from './skeleton.ts';
import { add, centroid, dot, lerp, normalize, scale, sub, cross } from './vec.ts';

export interface Ring {
  center: Vec3;
  /** Half extent along the frame's `w` axis. */
  w: number;
  /** Half extent along the frame's `d` axis. */
  d: number;
  skin: readonly Influence[];
}

export interface LoftSpec {
  /** Cross-section axes, perpendicular to the direction the rings advance in. */
  frame: { w: Vec3; d: Vec3 };
  rings: readonly Ring[];
  /** One material for the whole loft, or one per segment between consecutive key rings. */
  material: string | readonly string[];
  /** Superellipse exponent of the cross-section: 2 is an ellipse, larger is boxier. */
  exponent?: number;
  /** Vertices around each ring. */
  segments?: number;
  /** Rings generated per segment between key rings. */
  steps?: number;
  /** Closed ends: how far the pole stands out beyond the end ring (0 is a flat cap); absent ends stay open. */
  caps?: { start?: number; end?: number };
}

const catmullRom = (p0: number, p1: number, p2: number, p3: number, t: number): number =>
  0.5 * (2 * p1 + (-p0 + p2) * t + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t * t + (-p0 + 3 * p1 - 3 * p2 + p3) * t * t * t);

/** The key rings with `steps` interpolated rings per segment; `segment` says which key segment each one starts. */
export function densify(rings: readonly Ring[], steps: number): Array<Ring & { segment: number }> {
  const at = (i: number) => rings[Math.max(0, Math.min(rings.length - 1, i))] as Ring;
  const out: Array<Ring & { segment: number }> = [];
  for (let i = 0; i + 1 < rings.length; i++) {
    const [r0, r1, r2, r3] = [at(i - 1), at(i), at(i + 1), at(i + 2)];
    for (let s = 0; s < steps; s++) {
      const t = s / steps;
      const c = (k: number) => catmullRom(r0.center[k] as number, r1.center[k] as number, r2.center[k] as number, r3.center[k] as number, t);
      out.push({
        center: [c(0), c(1), c(2)],
        w: Math.max(0.0005, catmullRom(r0.w, r1.w, r2.w, r3.w, t)),
        d: Math.max(0.0005, catmullRom(r0.d, r1.d, r2.d, r3.d, t)),
        skin: mergeInfluences([
          [r1.skin, 1 - t],
          [r2.skin, t],
        ]),
        segment: i,
      });
    }
  }
  out.push({ ...(rings[rings.length - 1] as Ring), segment: rings.length - 2 });
  return out;
}

/** A point of a superellipse cross-section at angle `a` (0 along +w, a quarter turn along +d). */
export function sectionPoint(ring: Ring, frame: LoftSpec['frame'], exponent: number, a: number): Vec3 {
  const superCos = (v: number) => Math.sign(v) * Math.abs(v) ** (2 / exponent);
  return add(ring.center, add(scale(frame.w, superCos(Math.cos(a)) * ring.w), scale(frame.d, superCos(Math.sin(a)) * ring.d)));
}

export function loft(builder: MeshBuilder, spec: LoftSpec): void {
  const segments = spec.segments ?? 20;
  const rings = densify(spec.rings, spec.steps ?? 4);
  const positions: Vec3[] = [];
  const skins: Array<readonly Influence[]> = [];
  for (const ring of rings) {
    for (let k = 0; k < segments; k++) {
      positions.push(sectionPoint(ring, spec.frame, spec.exponent ?? 2, (2 * Math.PI * k) / segments));
      skins.push(ring.skin);
    }
  }
  const faces: Array<{ triangle: Triangle; segment: number }> = [];
  const push = (triangle: Triangle, inside: Vec3, segment: number) => faces.push({ triangle: outward(positions, triangle, inside), segment });
  rings.forEach((ring, j) => {
    const next = rings[j + 1];
    if (!next) return;
    const inside = lerp(ring.center, next.center, 0.5);
    for (let k = 0; k < segments; k++) {
      const [a, b] = [j * segments + k, j * segments + ((k + 1) % segments)];
      const [c, d] = [a + segments, b + segments];
      push([a, b, d], inside, ring.segment);
      push([a, d, c], inside, ring.segment);
    }
  });
  const cap = (endRing: number, neighbour: number, bulge: number | undefined) => {
    if (bulge === undefined) return;
    const end = rings[endRing] as Ring & { segment: number };
    const axis = normalize(sub(end.center, (rings[neighbour] as Ring).center));
    const pole = positions.push(add(end.center, scale(axis, bulge))) - 1;
    skins.push(end.skin);
    for (let k = 0; k < segments; k++) {
      push([pole, endRing * segments + k, endRing * segments + ((k + 1) % segments)], (rings[neighbour] as Ring).center, end.segment);
    }
  };
  cap(0, 1, spec.caps?.start);
  cap(rings.length - 1, rings.length - 2, spec.caps?.end);
  const normals = smoothNormals(
    positions,
    faces.map((f) => f.triangle),
  );
  const materialOf = (segment: number) => (typeof spec.material === 'string' ? spec.material : (spec.material[segment] as string));
  emitByMaterial(builder, positions, normals, skins, faces, materialOf);
}

/** Winds a triangle so its normal points away from `inside`. */
function outward(positions: readonly Vec3[], triangle: Triangle, inside: Vec3): Triangle {
  const [a, b, c] = triangle.map((i) => positions[i] as Vec3) as [Vec3, Vec3, Vec3];
  const normal = cross(sub(b, a), sub(c, a));
  return dot(normal, sub(centroid([a, b, c]), inside)) >= 0 ? triangle : [triangle[0], triangle[2], triangle[1]];
}

function emitByMaterial(
  builder: MeshBuilder,
  positions: readonly Vec3[],
  normals: readonly Vec3[],
  skins: ReadonlyArray<readonly Influence[]>,
  faces: ReadonlyArray<{ triangle: Triangle; segment: number }>,
  materialOf: (segment: number) => string,
): void {
  const groups = new Map<string, Triangle[]>();
  for (const { triangle, segment } of faces) {
    const material = materialOf(segment);
    const list = groups.get(material) ?? [];
    list.push(triangle);
    groups.set(material, list);
  }
  for (const [material, triangles] of groups) {
    const local = new Map<number, number>();
    const vertices: BuiltVertex[] = [];
    const index = (i: number) => {
      let found = local.get(i);
      if (found === undefined) {
        found = vertices.push({ position: positions[i] as Vec3, normal: normals[i] as Vec3, skin: skins[i] as Influence[] }) - 1;
        local.set(i, found);
      }
      return found;
    };
    const localTriangles = triangles.map(([a, b, c]): Triangle => [index(a), index(b), index(c)]);
    builder.add(material, vertices, localTriangles);
  }
}
