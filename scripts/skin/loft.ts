/**
 * Lofted solids: chamfered-rectangle cross-sections joined into a closed tube. One primitive shape gives the
 * whole low-poly body: round-ish limbs (strong chamfer), boxy hands and feet (light chamfer), a torso whose
 * rings blend between spine bones so it bends without opening gaps.
 */
import type { MeshBuilder, Influence, Vertex } from './mesh-builder.ts';
import type { Vec3 } from './skeleton.ts';
import { add, lerp, scale } from './vec.ts';

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
  /** Share of each side kept straight: 1 is a box, about 0.4 a regular octagon. */
  chamfer: number;
  rings: readonly Ring[];
  /** One material per segment between consecutive rings. */
  materials: readonly string[];
  caps: { start?: string; end?: string };
}

export function loft(builder: MeshBuilder, spec: LoftSpec): void {
  const outlines = spec.rings.map((ring) => outline(ring, spec));
  spec.rings.forEach((ring, i) => {
    const next = spec.rings[i + 1];
    const material = spec.materials[i];
    if (!next || material === undefined) return;
    const a = outlines[i] as Vertex[];
    const b = outlines[i + 1] as Vertex[];
    const inside = lerp(ring.center, next.center, 0.5);
    a.forEach((_, k) => {
      const k2 = (k + 1) % a.length;
      builder.facet(material, [a[k] as Vertex, a[k2] as Vertex, b[k2] as Vertex, b[k] as Vertex], inside);
    });
  });
  const first = spec.rings[0];
  const last = spec.rings[spec.rings.length - 1];
  const second = spec.rings[1];
  const beforeLast = spec.rings[spec.rings.length - 2];
  if (!first || !last || !second || !beforeLast) throw new Error('a loft needs at least two rings');
  if (spec.caps.start) builder.facet(spec.caps.start, outlines[0] as Vertex[], second.center);
  if (spec.caps.end) builder.facet(spec.caps.end, outlines[outlines.length - 1] as Vertex[], beforeLast.center);
}

function outline(ring: Ring, spec: LoftSpec): Vertex[] {
  const c = spec.chamfer;
  const corners: Array<[number, number]> = [
    [1, c],
    [c, 1],
    [-c, 1],
    [-1, c],
    [-1, -c],
    [-c, -1],
    [c, -1],
    [1, -c],
  ];
  return corners.map(([u, v]) => ({
    position: add(ring.center, add(scale(spec.frame.w, u * ring.w), scale(spec.frame.d, v * ring.d))),
    skin: ring.skin,
  }));
}
