/**
 * Collects indexed triangle surfaces into one primitive per material. Surfaces share their vertices and get
 * smooth normals (area-weighted face normals summed per vertex), so lofted limbs read as round, not faceted.
 */
import type { HumanBone, Vec3 } from './skeleton.ts';
import { add, cross, normalize, sub } from './vec.ts';

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

/** A triangle as three indices into a surface's vertex list. */
export type Triangle = readonly [number, number, number];

export class MeshBuilder {
  readonly primitives = new Map<string, PrimitiveData>();

  /** Vertices with their normals already known, and triangles wound counter-clockwise seen from outside. */
  add(material: string, vertices: readonly BuiltVertex[], triangles: readonly Triangle[]): void {
    const primitive = this.primitive(material);
    const base = primitive.vertices.length;
    primitive.vertices.push(...vertices);
    for (const [a, b, c] of triangles) primitive.indices.push(base + a, base + b, base + c);
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

/** Per-vertex normals of a closed or open surface: the sum of its triangles' (area-weighted) normals. */
export function smoothNormals(positions: readonly Vec3[], triangles: readonly Triangle[]): Vec3[] {
  const sums: Vec3[] = positions.map(() => [0, 0, 0]);
  for (const [a, b, c] of triangles) {
    const pa = positions[a] as Vec3;
    const n = cross(sub(positions[b] as Vec3, pa), sub(positions[c] as Vec3, pa));
    for (const i of [a, b, c]) sums[i] = add(sums[i] as Vec3, n);
  }
  return sums.map(normalize);
}

/** Keeps the four strongest influences (glTF's JOINTS_0 limit) and makes the weights sum to one. */
export function mergeInfluences(parts: ReadonlyArray<readonly [readonly Influence[], number]>): Influence[] {
  const byBone = new Map<HumanBone, number>();
  for (const [skin, share] of parts) for (const { bone, weight } of skin) byBone.set(bone, (byBone.get(bone) ?? 0) + weight * share);
  const strongest = [...byBone]
    .filter(([, w]) => w > 1e-4)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 4);
  const total = strongest.reduce((s, [, w]) => s + w, 0);
  return strongest.map(([bone, weight]) => ({ bone, weight: weight / total }));
}
