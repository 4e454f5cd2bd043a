/** The VRMC_vrm extension object: who owns the avatar, which node is which bone, and what each expression moves. */
import { EXPRESSIONS, type Expression } from './avatar-face.ts';
import { HUMAN_BONES, JOINTS } from './skeleton.ts';

const LICENSE = {
  licenseUrl: 'https://vrm.dev/licenses/1.0/',
  // The avatar is part of the project and shares its licence.
  otherLicenseUrl: 'https://opensource.org/license/mit',
  avatarPermission: 'everyone',
  allowExcessivelyViolentUsage: false,
  allowExcessivelySexualUsage: false,
  commercialUsage: 'corporation',
  allowPoliticalOrReligiousUsage: false,
  allowAntisocialOrHateUsage: false,
  creditNotation: 'unnecessary',
  allowRedistribution: true,
  modification: 'allowModificationRedistribution',
} as const;

export const META = {
  name: 'Anima',
  version: '1.0.0',
  authors: ['The Anima project'],
  copyrightInformation: 'Made by the Anima project (scripts/make-default-skin.ts); MIT licence, like the project.',
  references: [],
  ...LICENSE,
};

/** Emotions dampen blinking and lip shapes so combined faces never push features past each other. */
const OVERRIDES: Partial<Record<Expression, Record<string, string>>> = {
  happy: { overrideBlink: 'blend', overrideMouth: 'blend' },
  relaxed: { overrideBlink: 'blend' },
  surprised: { overrideBlink: 'blend', overrideMouth: 'blend' },
  angry: { overrideBlink: 'blend' },
  sad: { overrideBlink: 'blend' },
};

export function vrmExtension(faceNode: number, meshNodes: number[]): Record<string, unknown> {
  const humanBones = Object.fromEntries(HUMAN_BONES.map((bone, node) => [bone, { node }]));
  const preset = Object.fromEntries(
    EXPRESSIONS.map((name, index) => [
      name,
      {
        morphTargetBinds: [{ node: faceNode, index, weight: 1 }],
        isBinary: false,
        overrideBlink: 'none',
        overrideLookAt: 'none',
        overrideMouth: 'none',
        ...OVERRIDES[name],
      },
    ]),
  );
  const head = JOINTS.head.position;
  const eye = JOINTS.leftEye.position;
  const range = { inputMaxValue: 90, outputScale: 1 };
  return {
    specVersion: '1.0',
    meta: META,
    humanoid: { humanBones },
    firstPerson: { meshAnnotations: meshNodes.map((node) => ({ node, type: 'auto' })) },
    lookAt: {
      // Look direction moves the irises through the look* expressions rather than rotating eye bones.
      type: 'expression',
      offsetFromHeadBone: [0, eye[1] - head[1], eye[2] - head[2]],
      rangeMapHorizontalInner: range,
      rangeMapHorizontalOuter: range,
      rangeMapVerticalDown: range,
      rangeMapVerticalUp: range,
    },
    expressions: { preset },
  };
}
