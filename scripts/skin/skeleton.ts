/**
 * The avatar's skeleton in its T-pose rest, shared by the VRM model and the Mixamo-rig animations so both
 * agree on proportions (the retarget scales hips motion by the ratio of hips heights).
 * Units are metres; the avatar stands on y = 0, faces +Z, and its left side is +X.
 */

export type Vec3 = readonly [number, number, number];

export const HUMAN_BONES = [
  'hips',
  'spine',
  'chest',
  'upperChest',
  'neck',
  'head',
  'leftEye',
  'rightEye',
  'leftShoulder',
  'leftUpperArm',
  'leftLowerArm',
  'leftHand',
  'rightShoulder',
  'rightUpperArm',
  'rightLowerArm',
  'rightHand',
  'leftUpperLeg',
  'leftLowerLeg',
  'leftFoot',
  'leftToes',
  'rightUpperLeg',
  'rightLowerLeg',
  'rightFoot',
  'rightToes',
] as const;

export type HumanBone = (typeof HUMAN_BONES)[number];

export interface Joint {
  parent: HumanBone | null;
  position: Vec3;
}

/** Rest positions mirrored for the right side, so left and right can never drift apart. */
function sided(x: number, y: number, z: number): { left: Vec3; right: Vec3 } {
  return { left: [x, y, z], right: [-x, y, z] };
}

const shoulder = sided(0.03, 1.335, 0);
const upperArm = sided(0.15, 1.335, 0);
const lowerArm = sided(0.41, 1.335, 0);
const hand = sided(0.64, 1.335, 0);
const upperLeg = sided(0.085, 0.87, 0);
const lowerLeg = sided(0.085, 0.49, 0);
const foot = sided(0.085, 0.09, 0);
const toes = sided(0.085, 0.025, 0.1);
const eye = sided(0.045, 1.522, 0.075);

export const JOINTS: Record<HumanBone, Joint> = {
  hips: { parent: null, position: [0, 0.92, 0] },
  spine: { parent: 'hips', position: [0, 1.0, 0] },
  chest: { parent: 'spine', position: [0, 1.11, 0] },
  upperChest: { parent: 'chest', position: [0, 1.22, 0] },
  neck: { parent: 'upperChest', position: [0, 1.37, 0] },
  head: { parent: 'neck', position: [0, 1.44, 0] },
  leftEye: { parent: 'head', position: eye.left },
  rightEye: { parent: 'head', position: eye.right },
  leftShoulder: { parent: 'upperChest', position: shoulder.left },
  leftUpperArm: { parent: 'leftShoulder', position: upperArm.left },
  leftLowerArm: { parent: 'leftUpperArm', position: lowerArm.left },
  leftHand: { parent: 'leftLowerArm', position: hand.left },
  rightShoulder: { parent: 'upperChest', position: shoulder.right },
  rightUpperArm: { parent: 'rightShoulder', position: upperArm.right },
  rightLowerArm: { parent: 'rightUpperArm', position: lowerArm.right },
  rightHand: { parent: 'rightLowerArm', position: hand.right },
  leftUpperLeg: { parent: 'hips', position: upperLeg.left },
  leftLowerLeg: { parent: 'leftUpperLeg', position: lowerLeg.left },
  leftFoot: { parent: 'leftLowerLeg', position: foot.left },
  leftToes: { parent: 'leftFoot', position: toes.left },
  rightUpperLeg: { parent: 'hips', position: upperLeg.right },
  rightLowerLeg: { parent: 'rightUpperLeg', position: lowerLeg.right },
  rightFoot: { parent: 'rightLowerLeg', position: foot.right },
  rightToes: { parent: 'rightFoot', position: toes.right },
};

/** Tips of the end bones: they give the last bone of each chain a length and a direction. */
export const BONE_TIPS = {
  head: [0, 1.64, 0],
  leftHand: [0.79, 1.335, 0],
  rightHand: [-0.79, 1.335, 0],
  leftToes: [0.085, 0.025, 0.18],
  rightToes: [-0.085, 0.025, 0.18],
} as const satisfies Partial<Record<HumanBone, Vec3>>;

export function localOffset(bone: HumanBone): Vec3 {
  const { parent, position } = JOINTS[bone];
  if (parent === null) return position;
  const p = JOINTS[parent].position;
  return [position[0] - p[0], position[1] - p[1], position[2] - p[2]];
}
