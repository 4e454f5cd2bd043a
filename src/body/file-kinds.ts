import { open } from 'node:fs/promises';
import { z } from 'zod';

/**
 * What an uploaded file is, judged by its content and never by its name: FBX (binary or ASCII), a VRM
 * Animation (`.vrma`) or a VRM model (0.x or 1.0). Both glTF kinds are GLB containers whose first chunk
 * is the glTF JSON; the extension that names them lives there.
 */
export type AnimationKind = 'fbx' | 'vrma';
export type VrmVersion = '1.0' | '0.x';

const GLB_MAGIC = 0x46546c67; // "glTF"
const GLB_HEADER_BYTES = 12;
const CHUNK_HEADER_BYTES = 8;
const JSON_CHUNK = 0x4e4f534a; // "JSON"
/** A glTF JSON chunk this big is not a model anyone uploads; refusing it keeps memory bounded. */
const MAX_JSON_CHUNK_BYTES = 16 * 1024 * 1024;
/** How far into an ASCII FBX its header must appear. */
const FBX_TEXT_PROBE_BYTES = 4096;
const FBX_BINARY_MAGIC = Buffer.from('Kaydara FBX Binary  \0', 'latin1');

const GltfJsonSchema = z.looseObject({
  asset: z.looseObject({ version: z.string() }),
  extensions: z.record(z.string(), z.unknown()).optional(),
});
export type GltfJson = z.infer<typeof GltfJsonSchema>;

async function readHead(path: string, offset: number, length: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, offset);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The glTF JSON of a GLB file (magic `glTF`, version 2, a JSON first chunk that parses), else undefined. */
export async function readGlbJson(path: string): Promise<GltfJson | undefined> {
  const header = await readHead(path, 0, GLB_HEADER_BYTES + CHUNK_HEADER_BYTES);
  if (header.length < GLB_HEADER_BYTES + CHUNK_HEADER_BYTES) return undefined;
  if (header.readUInt32LE(0) !== GLB_MAGIC || header.readUInt32LE(4) !== 2) return undefined;
  const declaredLength = header.readUInt32LE(8);
  const chunkLength = header.readUInt32LE(12);
  if (header.readUInt32LE(16) !== JSON_CHUNK || chunkLength > MAX_JSON_CHUNK_BYTES) return undefined;
  if (GLB_HEADER_BYTES + CHUNK_HEADER_BYTES + chunkLength > declaredLength) return undefined;
  const chunk = await readHead(path, GLB_HEADER_BYTES + CHUNK_HEADER_BYTES, chunkLength);
  if (chunk.length !== chunkLength) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(chunk.toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = GltfJsonSchema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

function hasExtension(json: GltfJson, name: string): boolean {
  const value = json.extensions?.[name];
  return typeof value === 'object' && value !== null;
}

/** `1.0` for a `VRMC_vrm` model, `0.x` for a `VRM` one, undefined for anything else. */
export async function detectVrm(path: string): Promise<VrmVersion | undefined> {
  const json = await readGlbJson(path);
  if (!json) return undefined;
  if (hasExtension(json, 'VRMC_vrm')) return '1.0';
  if (hasExtension(json, 'VRM')) return '0.x';
  return undefined;
}

/** `fbx` for binary (`Kaydara FBX Binary`) or ASCII (`; FBX` / `FBXHeaderExtension`) FBX, `vrma` for a VRM Animation. */
export async function detectAnimation(path: string): Promise<AnimationKind | undefined> {
  const head = await readHead(path, 0, FBX_TEXT_PROBE_BYTES);
  if (head.subarray(0, FBX_BINARY_MAGIC.length).equals(FBX_BINARY_MAGIC)) return 'fbx';
  // A UTF-8 byte-order mark read as latin1 is these three characters.
  const text = head.toString('latin1').replace(/^\u00ef\u00bb\u00bf/, '');
  if (/^\s*; FBX/.test(text) || /^\s*FBXHeaderExtension:/m.test(text)) return 'fbx';
  if (head.length >= 4 && head.readUInt32LE(0) === GLB_MAGIC) {
    const json = await readGlbJson(path);
    if (json && hasExtension(json, 'VRMC_vrm_animation')) return 'vrma';
  }
  return undefined;
}
