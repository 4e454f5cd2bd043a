/**
 * Collects flat-shaded polygons into one primitive per material. Every polygon gets its own vertices so
 * the faceted low-poly look survives (a shared vertex would average the normals away).
 */
import type { HumanBone, Vec3 } from './skeleton.ts';
import { add, centroid, dot, normalize, sub } from './vec.ts';

export interface Influence {
  bone: HumanBone;
  weight: number;
}

export interface Vertex {
  position: Vec3;
  skin: readonly Influence[];
  /** Displacement of this vertex per morph target name; absent targets do not move it. */
  morphs?: Readonly<Record<string, Vec3>>;
}

export interface BuiltVertex extends Vertex {
  normal: Vec3;
}

export interface PrimitiveData {
  vertices: BuiltVertex[];
  indices: number[];
}

export class MeshBuilder {
  readonly primitives = new Map<string, PrimitiveData>();

  /** A convex planar polygon; its winding is fixed so the face normal points along `outward`. */
  polygon(material: string, vertices: readonly Vertex[], outward: Vec3): void {
    let ring = [...vertices];
    let normal = newellNormal(ring.map((v) => v.position));
    if (dot(normal, outward) < 0) {
      ring = ring.reverse();
      normal = [-normal[0], -normal[1], -normal[2]];
    }
    const primitive = this.primitive(material);
    const base = primitive.vertices.length;
    for (const v of ring) primitive.vertices.push({ ...v, normal });
    for (let i = 1; i + 1 < ring.length; i++) primitive.indices.push(base, base + i, base + i + 1);
  }

  /** Polygon whose outward side is away from `inside`, the usual case for closed solids. */
  facet(material: string, vertices: readonly Vertex[], inside: Vec3): void {
    this.polygon(material, vertices, sub(centroid(vertices.map((v) => v.position)), inside));
  }

  private primitive(material: string): PrimitiveData {
    let primitive = this.primitives.get(material);
    if (!primitive) {
      primitive = { vertices: [], indices: [] };
      this.primitives.set(material, primitive);
    }
    return primitive;
  }
}

/** Newell's method: robust for polygons that are only nearly planar. */
function newellNormal(points: readonly Vec3[]): Vec3 {
  let n: Vec3 = [0, 0, 0];
  points.forEach((p, i) => {
    const q = points[(i + 1) % points.length] as Vec3;
    n = add(n, [(p[1] - q[1]) * (p[2] + q[2]), (p[2] - q[2]) * (p[0] + q[0]), (p[0] - q[0]) * (p[1] + q[1])]);
  });
  return normalize(n);
}
