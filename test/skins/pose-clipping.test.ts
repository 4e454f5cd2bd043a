import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { VRM } from '@pixiv/three-vrm';
import { AnimationMixer, Matrix4, type Object3D, Quaternion, type SkinnedMesh, Vector3 } from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import { TORSO_EXPONENT, TORSO_PROFILE } from '../../scripts/skin/avatar-body.ts';
import { HEAD_PROFILE } from '../../scripts/skin/avatar-head.ts';
import { CLIPS } from '../../scripts/skin/clips/index.ts';
import { JOINTS, type HumanBone } from '../../scripts/skin/skeleton.ts';
import { animationPath, VRM_FILE } from '../../scripts/skin/skin-files.ts';
import { retargetMixamo } from '../../src/webui/avatar/retarget.ts';
import { loadFbx, loadVrm } from '../helpers/three-loaders.ts';

const SKIN_DIR = fileURLToPath(new URL('../../skins/default/', import.meta.url));
const read = (path: string) => readFileSync(join(SKIN_DIR, path));

/** Hands and forearms are what a pose can push through the body; upper arms start inside the shoulders. */
const LIMB_BONES: HumanBone[] = ['leftHand', 'rightHand', 'leftLowerArm', 'rightLowerArm'];
/** A hand resting on the chin or the waist touches the surface; deeper than this is clipping. */
const TOLERANCE_M = 0.006;
const SAMPLE_EVERY_FRAMES = 3;

interface Section {
  y: number;
  w: number;
  d: number;
  z: number;
}

/** Which bone carries which band of the torso (bone-local rest heights, as in avatar-body). */
const TORSO_BANDS: Array<[HumanBone, number, number]> = [
  ['hips', -Infinity, 0.98],
  ['spine', 0.98, 1.1],
  ['chest', 1.1, 1.22],
  ['upperChest', 1.22, Infinity],
];

/** The profile's cross-section at height y (linear between key rings), or none outside it. */
function sectionAt(profile: readonly Section[], y: number): Section | undefined {
  for (let i = 0; i + 1 < profile.length; i++) {
    const a = profile[i] as Section;
    const b = profile[i + 1] as Section;
    if (y >= a.y && y <= b.y) {
      const t = (y - a.y) / (b.y - a.y);
      return { y, w: a.w + (b.w - a.w) * t, d: a.d + (b.d - a.d) * t, z: a.z + (b.z - a.z) * t };
    }
  }
  return undefined;
}

/** How deep (metres, roughly) a rest-pose point lies inside a vertical superellipse solid; negative outside. */
function depthInside(profile: readonly Section[], exponent: number, p: Vector3): number {
  const s = sectionAt(profile, p.y);
  if (!s) return -1;
  const r = ((Math.abs(p.x) / s.w) ** exponent + (Math.abs(p.z - s.z) / s.d) ** exponent) ** (1 / exponent);
  return (1 - r) * Math.min(s.w, s.d);
}

/** Maps a posed world point into a bone's rest pose (VRM 1.0 raw bones rest unrotated at their joints). */
function toRest(vrm: VRM, bone: HumanBone, world: Vector3): Vector3 {
  const node = vrm.humanoid.getRawBoneNode(bone) as Object3D;
  const local = world.clone().applyMatrix4(new Matrix4().copy(node.matrixWorld).invert());
  return local.add(new Vector3(...JOINTS[bone].position));
}

function deepestIntrusion(vrm: VRM, point: Vector3): { depth: number; into: string } {
  let deepest = { depth: -1, into: '' };
  for (const [bone, from, to] of TORSO_BANDS) {
    const rest = toRest(vrm, bone, point);
    if (rest.y < from || rest.y >= to) continue;
    const depth = depthInside(TORSO_PROFILE, TORSO_EXPONENT, rest);
    if (depth > deepest.depth) deepest = { depth, into: `torso (${bone})` };
  }
  const depth = depthInside(HEAD_PROFILE, 2, toRest(vrm, 'head', point));
  if (depth > deepest.depth) deepest = { depth, into: 'head' };
  return deepest;
}

/** Vertices of the body mesh whose strongest influence is a hand or forearm bone. */
function limbVertices(vrm: VRM): Array<{ mesh: SkinnedMesh; index: number; bone: string }> {
  const limbNodes = new Map(LIMB_BONES.map((bone) => [vrm.humanoid.getRawBoneNode(bone), bone]));
  const found: Array<{ mesh: SkinnedMesh; index: number; bone: string }> = [];
  vrm.scene.traverse((object: Object3D) => {
    const mesh = object as SkinnedMesh;
    if (!mesh.isSkinnedMesh || mesh.morphTargetInfluences?.length) return;
    const joints = mesh.geometry.getAttribute('skinIndex');
    const weights = mesh.geometry.getAttribute('skinWeight');
    for (let i = 0; i < joints.count; i++) {
      let strongest = 0;
      for (let k = 1; k < 4; k++) if (weights.getComponent(i, k) > weights.getComponent(i, strongest)) strongest = k;
      const bone = limbNodes.get(mesh.skeleton.bones[joints.getComponent(i, strongest)] ?? null);
      if (bone) found.push({ mesh, index: i, bone });
    }
  });
  return found;
}

/** The deepest point of any hand or forearm inside the torso or head in the current pose. */
function deepestLimbIntrusion(vrm: VRM, limbs: ReturnType<typeof limbVertices>): { depth: number; into: string; bone: string } {
  vrm.update(0);
  vrm.scene.updateMatrixWorld(true);
  const world = new Vector3();
  let worst = { depth: TOLERANCE_M, into: '', bone: '' };
  for (const { mesh, index, bone } of limbs) {
    mesh.getVertexPosition(index, world).applyMatrix4(mesh.matrixWorld);
    const hit = deepestIntrusion(vrm, world);
    if (hit.depth > worst.depth) worst = { ...hit, bone };
  }
  return worst;
}

describe('default skin poses: hands and forearms stay outside the torso and head', () => {
  let vrm: VRM;
  let limbs: ReturnType<typeof limbVertices>;

  beforeAll(async () => {
    vrm = await loadVrm(read(VRM_FILE));
    limbs = limbVertices(vrm);
  });

  it('finds the hands and forearms of the body mesh', () => {
    for (const bone of LIMB_BONES) expect(limbs.filter((v) => v.bone === bone).length, bone).toBeGreaterThan(50);
  });

  it('reports a forearm bent through the waist', () => {
    // Upper arm straight down, forearm turned in: it runs through the torso at elbow height.
    const down = new Quaternion().setFromAxisAngle(new Vector3(0, 0, 1), Math.PI / 2);
    vrm.humanoid.getNormalizedBoneNode('rightUpperArm')?.quaternion.copy(down);
    vrm.humanoid.getNormalizedBoneNode('rightLowerArm')?.quaternion.copy(down);
    expect(deepestLimbIntrusion(vrm, limbs).into).toMatch(/^torso/);
    vrm.humanoid.resetNormalizedPose();
  });

  it.each(CLIPS.map((c) => [`${c.state}/${c.name}`, c] as const))('%s', (_, clip) => {
    const mixer = new AnimationMixer(vrm.scene);
    mixer.clipAction(retargetMixamo(loadFbx(read(animationPath(clip))), vrm)).play();
    const intrusions: string[] = [];
    for (let frame = 0; frame <= clip.lastFrame; frame += SAMPLE_EVERY_FRAMES) {
      mixer.setTime(frame / clip.descriptor.fps);
      const worst = deepestLimbIntrusion(vrm, limbs);
      if (worst.bone) intrusions.push(`frame ${frame}: ${worst.bone} ${(worst.depth * 1000).toFixed(0)} mm into the ${worst.into}`);
    }
    mixer.stopAllAction();
    mixer.uncacheRoot(vrm.scene);
    vrm.humanoid.resetNormalizedPose();
    expect(intrusions).toEqual([]);
  });
});
