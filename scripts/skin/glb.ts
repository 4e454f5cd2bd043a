/**
 * A minimal glTF 2.0 binary writer: one buffer, 4-byte aligned buffer views, accessors (dense and sparse)
 * and the GLB container. It knows nothing about avatars.
 */

export type AccessorType = 'SCALAR' | 'VEC2' | 'VEC3' | 'VEC4' | 'MAT4';
type Typed = Float32Array | Uint16Array | Uint8Array;

const COMPONENTS: Record<AccessorType, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 };
const ARRAY_BUFFER = 34962;
const ELEMENT_ARRAY_BUFFER = 34963;

function componentType(data: Typed): number {
  if (data instanceof Float32Array) return 5126;
  if (data instanceof Uint16Array) return 5123;
  return 5121;
}

export type Json = Record<string, unknown>;

export class GltfWriter {
  readonly accessors: Json[] = [];
  private readonly bufferViews: Json[] = [];
  private readonly chunks: Uint8Array[] = [];
  private byteLength = 0;

  /** Vertex attributes, indices, or (target undefined) data that is not bound to the GPU directly. */
  bufferView(data: Typed, target?: 'vertex' | 'index'): number {
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    const view: Json = { buffer: 0, byteOffset: this.byteLength, byteLength: bytes.byteLength };
    if (target) view.target = target === 'vertex' ? ARRAY_BUFFER : ELEMENT_ARRAY_BUFFER;
    this.chunks.push(bytes);
    this.byteLength += bytes.byteLength;
    const pad = (4 - (this.byteLength % 4)) % 4;
    if (pad) {
      this.chunks.push(new Uint8Array(pad));
      this.byteLength += pad;
    }
    return this.bufferViews.push(view) - 1;
  }

  accessor(data: Typed, type: AccessorType, opts: { target?: 'vertex' | 'index'; bounds?: boolean } = {}): number {
    const accessor: Json = {
      bufferView: this.bufferView(data, opts.target),
      componentType: componentType(data),
      count: data.length / COMPONENTS[type],
      type,
    };
    if (opts.bounds) Object.assign(accessor, bounds(data, COMPONENTS[type]));
    return this.accessors.push(accessor) - 1;
  }

  /**
   * A VEC3 float accessor of `count` elements that are zero except at `indices`. Morph targets touch few
   * vertices, so this keeps the file small; with no indices at all the accessor is all zeros.
   */
  sparseVec3(count: number, indices: Uint16Array, values: Float32Array): number {
    const dense = new Float32Array(count * 3);
    for (const [i, index] of indices.entries()) dense.set(values.subarray(i * 3, i * 3 + 3), index * 3);
    const accessor: Json = { componentType: 5126, count, type: 'VEC3', ...bounds(dense, 3) };
    if (indices.length > 0) {
      accessor.sparse = {
        count: indices.length,
        indices: { bufferView: this.bufferView(indices), componentType: 5123 },
        values: { bufferView: this.bufferView(values) },
      };
    }
    return this.accessors.push(accessor) - 1;
  }

  /** The GLB file: header, JSON chunk padded with spaces, BIN chunk padded with zeros. */
  glb(json: Json): Buffer {
    const document = {
      ...json,
      accessors: this.accessors,
      bufferViews: this.bufferViews,
      buffers: [{ byteLength: this.byteLength }],
    };
    const jsonBytes = Buffer.from(JSON.stringify(document), 'utf8');
    const jsonChunk = Buffer.concat([jsonBytes, Buffer.alloc((4 - (jsonBytes.length % 4)) % 4, 0x20)]);
    const binChunk = Buffer.concat(this.chunks);
    const header = Buffer.alloc(12);
    header.write('glTF', 0, 'ascii');
    header.writeUInt32LE(2, 4);
    header.writeUInt32LE(12 + 8 + jsonChunk.length + 8 + binChunk.length, 8);
    return Buffer.concat([header, chunkHeader(jsonChunk.length, 0x4e4f534a), jsonChunk, chunkHeader(binChunk.length, 0x004e4942), binChunk]);
  }
}

function chunkHeader(length: number, type: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeUInt32LE(length, 0);
  b.writeUInt32LE(type, 4);
  return b;
}

function bounds(data: Typed, size: number): { min: number[]; max: number[] } {
  const min = Array<number>(size).fill(Infinity);
  const max = Array<number>(size).fill(-Infinity);
  for (let i = 0; i < data.length; i++) {
    const c = i % size;
    const v = data[i] as number;
    if (v < (min[c] as number)) min[c] = v;
    if (v > (max[c] as number)) max[c] = v;
  }
  return { min, max };
}
