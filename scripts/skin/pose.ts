/**
 * Poses in the VRM normalised-bone convention: every rotation is relative to the T-pose, with axes of the
 * avatar (+X its left, +Y up, +Z forward). Arms are aimed by direction, which keeps keyframes readable
 * ("forearm points up to the chin") and gives elbows the smallest, hinge-like rotation.
 */
import { Euler, MathUtils, Quaternion, Vector3 } from 'three';
import { HUMAN_BONES, JOINTS, type HumanBone, type Vec3 } from './skeleton.ts';

export type Side = 'left' | 'right';

export interface ArmPose {
  /** Directions in the upper chest's frame, so arms follow the torso as it sways. */
  upper: Vec3;
  lower: Vec3;
  hand: Vec3;
  /** Roll of the hand about its own length, degrees. */
  twist: number;
}

type ArmBone = `${Side}${'UpperArm' | 'LowerArm' | 'Hand'}`;
export type RotatedBone = Exclude<HumanBone, ArmBone | 'leftEye' | 'rightEye'>;

export interface Pose {
  /** Offset of the hips from their rest position, metres. */
  hips: Vec3;
  /** Euler angles in degrees (XYZ order); bones left out stay at rest. */
  rotations: Partial<Record<RotatedBone, Vec3>>;
  arms: Record<Side, ArmPose>;
}

export interface SolvedPose {
  hipsPosition: Vec3;
  rotations: Map<HumanBone, Quaternion>;
}

const REST_DIRECTION: Record<Side, Vector3> = { left: new Vector3(1, 0, 0), right: new Vector3(-1, 0, 0) };

function euler(deg: Vec3 | undefined): Quaternion {
  if (!deg) return new Quaternion();
  const [x, y, z] = deg.map((d) => MathUtils.degToRad(d)) as [number, number, number];
  return new Quaternion().setFromEuler(new Euler(x, y, z, 'XYZ'));
}

/** Local rotation that turns the bone's rest direction toward `direction` seen from its parent. */
function aim(parentWorld: Quaternion, rest: Vector3, direction: Vector3): Quaternion {
  const local = direction.clone().normalize().applyQuaternion(parentWorld.clone().invert());
  return new Quaternion().setFromUnitVectors(rest, local);
}

export function solvePose(pose: Pose): SolvedPose {
  const rotations = new Map<HumanBone, Quaternion>();
  const world = new Map<HumanBone, Quaternion>();
  for (const bone of HUMAN_BONES) {
    if (bone === 'leftEye' || bone === 'rightEye') continue;
    const parent = JOINTS[bone].parent;
    const parentWorld = parent ? (world.get(parent) as Quaternion) : new Quaternion();
    const local = localRotation(bone, pose, parentWorld, world);
    rotations.set(bone, local);
    world.set(bone, parentWorld.clone().multiply(local));
  }
  const rest = JOINTS.hips.position;
  return { hipsPosition: [rest[0] + pose.hips[0], rest[1] + pose.hips[1], rest[2] + pose.hips[2]], rotations };
}

function localRotation(bone: HumanBone, pose: Pose, parentWorld: Quaternion, world: Map<HumanBone, Quaternion>): Quaternion {
  const side: Side = bone.startsWith('left') ? 'left' : 'right';
  const part = bone.slice(side.length);
  if (part !== 'UpperArm' && part !== 'LowerArm' && part !== 'Hand') return euler(pose.rotations[bone as RotatedBone]);
  const arm = pose.arms[side];
  const body = world.get('upperChest') as Quaternion;
  const toWorld = (d: Vec3) => new Vector3(...d).applyQuaternion(body);
  const rest = REST_DIRECTION[side];
  if (part === 'UpperArm') return aim(parentWorld, rest, toWorld(arm.upper));
  if (part === 'LowerArm') return aim(parentWorld, rest, toWorld(arm.lower));
  const twist = new Quaternion().setFromAxisAngle(rest, MathUtils.degToRad(arm.twist));
  return aim(parentWorld, rest, toWorld(arm.hand)).multiply(twist);
}
