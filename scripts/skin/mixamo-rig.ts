/**
 * The animation rig: the avatar's skeleton under Mixamo bone names, in centimetres, with Mixamo's bone
 * orientation (each bone's local +Y runs along the bone toward its child). The rest orientation sits in
 * PreRotation, as joint orients do, so Lcl Rotation is zero in the T-pose and animation curves stay small.
 */
import { Quaternion, Vector3 } from 'three';
import { BONE_TIPS, JOINTS, type HumanBone, type Vec3 } from './skeleton.ts';

export const CM_PER_M = 100;

export interface RigBone {
  name: string;
  /** The humanoid bone it drives; end bones have none. */
  human: HumanBone | null;
  parent: string | null;
  /** Rest position in world space, centimetres. */
  position: Vector3;
  /** Rest orientation in world space. */
  rest: Quaternion;
}

const MAPPING: Array<[string, HumanBone | null, string | null, Vec3 | null]> = [
  ['Hips', 'hips', null, null],
  ['Spine', 'spine', 'Hips', null],
  ['Spine1', 'chest', 'Spine', null],
  ['Spine2', 'upperChest', 'Spine1', null],
  ['Neck', 'neck', 'Spine2', null],
  ['Head', 'head', 'Neck', null],
  ['HeadTop_End', null, 'Head', BONE_TIPS.head],
  ...(['Left', 'Right'] as const).flatMap((side): Array<[string, HumanBone | null, string | null, Vec3 | null]> => {
    const s = side === 'Left' ? 'left' : 'right';
    const bone = (name: string) => `${s}${name}` as HumanBone;
    return [
      [`${side}Shoulder`, bone('Shoulder'), 'Spine2', null],
      [`${side}Arm`, bone('UpperArm'), `${side}Shoulder`, null],
      [`${side}ForeArm`, bone('LowerArm'), `${side}Arm`, null],
      [`${side}Hand`, bone('Hand'), `${side}ForeArm`, null],
      [`${side}UpLeg`, bone('UpperLeg'), 'Hips', null],
      [`${side}Leg`, bone('LowerLeg'), `${side}UpLeg`, null],
      [`${side}Foot`, bone('Foot'), `${side}Leg`, null],
      [`${side}ToeBase`, bone('Toes'), `${side}Foot`, null],
      [`${side}Toe_End`, null, `${side}ToeBase`, side === 'Left' ? BONE_TIPS.leftToes : BONE_TIPS.rightToes],
    ];
  }),
];

const PREFIX = 'mixamorig:';

/** Where a bone points: toward its first child, or toward its tip for the ends of the chains. */
function aimPoint(human: HumanBone, children: Map<HumanBone, HumanBone>): Vec3 | null {
  const tip = (BONE_TIPS as Partial<Record<HumanBone, Vec3>>)[human];
  if (tip) return tip;
  const child = children.get(human);
  return child ? JOINTS[child].position : null;
}

function buildRig(): RigBone[] {
  // MAPPING lists the next spine bone before shoulders and legs, so the first child is the one to aim at.
  const children = new Map<HumanBone, HumanBone>();
  for (const [, human, parent] of MAPPING) {
    const parentHuman = MAPPING.find(([name]) => name === parent)?.[1];
    if (human && parentHuman && !children.has(parentHuman)) children.set(parentHuman, human);
  }
  const bones: RigBone[] = [];
  for (const [name, human, parent, tip] of MAPPING) {
    const position = new Vector3(...((human ? JOINTS[human].position : tip) as Vec3)).multiplyScalar(CM_PER_M);
    const parentBone = bones.find((b) => b.name === PREFIX + parent);
    const parentRest = parentBone ? parentBone.rest : new Quaternion();
    const target = human ? aimPoint(human, children) : null;
    let rest = parentRest.clone();
    if (target) {
      const along = new Vector3(...target).multiplyScalar(CM_PER_M).sub(position).normalize();
      const parentUp = new Vector3(0, 1, 0).applyQuaternion(parentRest);
      rest = new Quaternion().setFromUnitVectors(parentUp, along).multiply(parentRest);
    }
    bones.push({ name: PREFIX + name, human, parent: parent && PREFIX + parent, position, rest });
  }
  return bones;
}

export const RIG: readonly RigBone[] = buildRig();

function rigBone(name: string): RigBone {
  const bone = RIG.find((b) => b.name === name);
  if (!bone) throw new Error(`no rig bone ${name}`);
  return bone;
}

/** Translation relative to the parent, in the parent's rotated frame (FBX Lcl Translation). */
export function localTranslation(bone: RigBone): Vector3 {
  if (!bone.parent) return bone.position.clone();
  const parent = rigBone(bone.parent);
  return bone.position.clone().sub(parent.position).applyQuaternion(parent.rest.clone().invert());
}

/** Rest rotation relative to the parent (written as PreRotation). */
export function localRest(bone: RigBone): Quaternion {
  if (!bone.parent) return bone.rest.clone();
  return rigBone(bone.parent).rest.clone().invert().multiply(bone.rest);
}
