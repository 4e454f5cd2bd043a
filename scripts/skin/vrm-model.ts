/**
 * Assembles the avatar into a VRM 1.0 file: skeleton nodes, the skinned body and face meshes, MToon
 * materials and the VRMC_vrm extension.
 */
import { buildBody } from './avatar-body.ts';
import { buildFace, EXPRESSIONS } from './avatar-face.ts';
import { GltfWriter, type Json } from './glb.ts';
import type { MeshBuilder, PrimitiveData } from './mesh-builder.ts';
import { HUMAN_BONES, JOINTS, localOffset, type HumanBone } from './skeleton.ts';
import { vrmExtension } from './vrm-extension.ts';

/** Base and shade colours in sRGB hex (glTF wants linear factors); `outline` draws an MToon ink line. */
interface Paint {
  base: string;
  shade: string;
  outline?: boolean;
}

const MATERIALS: Record<string, Paint> = {
  skin: { base: '#fde6d6', shade: '#eeb9a6', outline: true },
  hair: { base: '#74472f', shade: '#553225', outline: true },
  shirt: { base: '#3e9fa9', shade: '#276a78', outline: true },
  collar: { base: '#f6f7fa', shade: '#bcc4d4', outline: true },
  trousers: { base: '#333a5c', shade: '#1e2340', outline: true },
  shoes: { base: '#f2ede6', shade: '#b8afa4', outline: true },
  eyeWhite: { base: '#ffffff', shade: '#eef0f6' },
  iris: { base: '#3f78c4', shade: '#2d5896' },
  pupil: { base: '#1b2042', shade: '#151936' },
  lash: { base: '#2b1b1d', shade: '#221517' },
  brow: { base: '#4f2f24', shade: '#3f241c' },
  mouth: { base: '#8e2f3f', shade: '#7a2635' },
  tongue: { base: '#ea8a90', shade: '#d87780' },
  blush: { base: '#f7a7a7', shade: '#ec9a9a' },
  nose: { base: '#ebb59f', shade: '#e0a58f' },
};
const MATERIAL_NAMES = Object.keys(MATERIALS);
/** Ink lines about 2.5 mm wide: a pixel or two at chat-window size, like line art. */
const OUTLINE_WIDTH_M = 0.0025;

function srgbToLinear(c: number): number {
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

function linear(hex: string, scale = 1): number[] {
  return [1, 3, 5].map((i) => Number((srgbToLinear(parseInt(hex.slice(i, i + 2), 16) / 255) * scale).toFixed(4)));
}

/** A VRM 1.0 MToon material (toon-shaded, with KHR_materials_unlit as the plain glTF fallback). */
function material(name: string): Json {
  const paint = MATERIALS[name] as Paint;
  const mtoon: Json = {
    specVersion: '1.0',
    shadeColorFactor: linear(paint.shade),
    shadingToonyFactor: 0.92,
    shadingShiftFactor: -0.1,
    giEqualizationFactor: 0.9,
    parametricRimColorFactor: [0.06, 0.06, 0.08],
    parametricRimFresnelPowerFactor: 4,
    rimLightingMixFactor: 1,
  };
  if (paint.outline) {
    Object.assign(mtoon, {
      outlineWidthMode: 'worldCoordinates',
      outlineWidthFactor: OUTLINE_WIDTH_M,
      outlineColorFactor: linear(paint.shade, 0.35),
      outlineLightingMixFactor: 1,
    });
  }
  return {
    name,
    pbrMetallicRoughness: { baseColorFactor: [...linear(paint.base), 1], metallicFactor: 0, roughnessFactor: 1 },
    extensions: { KHR_materials_unlit: {}, VRMC_materials_mtoon: mtoon },
  };
}

const boneIndex = new Map<HumanBone, number>(HUMAN_BONES.map((bone, i) => [bone, i]));

function primitive(w: GltfWriter, name: string, data: PrimitiveData, targets: readonly string[]): Json {
  const n = data.vertices.length;
  const position = new Float32Array(n * 3);
  const normal = new Float32Array(n * 3);
  const joints = new Uint8Array(n * 4);
  const weights = new Float32Array(n * 4);
  data.vertices.forEach((v, i) => {
    position.set(v.position, i * 3);
    normal.set(v.normal, i * 3);
    v.skin.forEach((influence, k) => {
      joints[i * 4 + k] = boneIndex.get(influence.bone) as number;
      weights[i * 4 + k] = influence.weight;
    });
  });
  const result: Json = {
    attributes: {
      POSITION: w.accessor(position, 'VEC3', { target: 'vertex', bounds: true }),
      NORMAL: w.accessor(normal, 'VEC3', { target: 'vertex' }),
      JOINTS_0: w.accessor(joints, 'VEC4', { target: 'vertex' }),
      WEIGHTS_0: w.accessor(weights, 'VEC4', { target: 'vertex' }),
    },
    indices: w.accessor(new Uint16Array(data.indices), 'SCALAR', { target: 'index' }),
    material: MATERIAL_NAMES.indexOf(name),
  };
  if (targets.length > 0) result.targets = targets.map((target) => ({ POSITION: morphAccessor(w, data, target) }));
  return result;
}

function morphAccessor(w: GltfWriter, data: PrimitiveData, target: string): number {
  const indices: number[] = [];
  const values: number[] = [];
  data.vertices.forEach((v, i) => {
    const delta = v.morphs?.[target];
    if (delta?.some((c) => c !== 0)) {
      indices.push(i);
      values.push(...delta);
    }
  });
  return w.sparseVec3(data.vertices.length, new Uint16Array(indices), new Float32Array(values));
}

function mesh(w: GltfWriter, name: string, builder: MeshBuilder, targets: readonly string[]): Json {
  const ordered = [...builder.primitives].sort(([a], [b]) => MATERIAL_NAMES.indexOf(a) - MATERIAL_NAMES.indexOf(b));
  const result: Json = { name, primitives: ordered.map(([mat, data]) => primitive(w, mat, data, targets)) };
  if (targets.length > 0) result.extras = { targetNames: targets };
  return result;
}

function skeletonNodes(): Json[] {
  return HUMAN_BONES.map((bone) => {
    const children = HUMAN_BONES.flatMap((child, i) => (JOINTS[child].parent === bone ? [i] : []));
    const name = bone.charAt(0).toUpperCase() + bone.slice(1);
    return { name, translation: localOffset(bone), ...(children.length > 0 ? { children } : {}) };
  });
}

/** Bind matrices are pure translations because every rest node is unrotated (VRM 1.0 T-pose). */
function inverseBindMatrices(w: GltfWriter): number {
  const data = new Float32Array(HUMAN_BONES.length * 16);
  HUMAN_BONES.forEach((bone, i) => {
    const [x, y, z] = JOINTS[bone].position;
    data.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -x, -y, -z, 1], i * 16);
  });
  return w.accessor(data, 'MAT4');
}

export function buildVrm(): Buffer {
  const w = new GltfWriter();
  const nodes = skeletonNodes();
  const bodyNode = nodes.push({ name: 'Body', mesh: 0, skin: 0 }) - 1;
  const faceNode = nodes.push({ name: 'Face', mesh: 1, skin: 0 }) - 1;
  const meshes = [mesh(w, 'Body', buildBody(), []), mesh(w, 'Face', buildFace(), EXPRESSIONS)];
  const skins = [{ name: 'Armature', joints: HUMAN_BONES.map((_, i) => i), skeleton: 0, inverseBindMatrices: inverseBindMatrices(w) }];
  return w.glb({
    asset: { version: '2.0', generator: 'Anima make-default-skin' },
    extensionsUsed: ['KHR_materials_unlit', 'VRMC_materials_mtoon', 'VRMC_vrm'],
    extensions: { VRMC_vrm: vrmExtension(faceNode, [bodyNode, faceNode]) },
    scene: 0,
    scenes: [{ name: 'Anima', nodes: [0, bodyNode, faceNode] }],
    nodes,
    meshes,
    materials: MATERIAL_NAMES.map(material),
    skins,
  });
}
