/**
 * The avatar's body in T-pose: smooth lofts for torso, neck, arms with mitten hands, legs and shoes, plus
 * the head and hair (avatar-head). Key rings near a joint carry both bones' weights, and the loft blends
 * weights between key rings, so the surface bends smoothly instead of creasing.
 */
import { head, hair } from './avatar-head.ts';
import { loft, type Ring } from './loft.ts';
import { type Influence, MeshBuilder } from './mesh-builder.ts';
import type { HumanBone, Vec3 } from './skeleton.ts';
import { cross, normalize, sub } from './vec.ts';

const X: Vec3 = [1, 0, 0];
const Y: Vec3 = [0, 1, 0];
const Z: Vec3 = [0, 0, 1];

const only = (bone: HumanBone): Influence[] => [{ bone, weight: 1 }];
const blend = (a: HumanBone, b: HumanBone, wa = 0.5): Influence[] => [
  { bone: a, weight: wa },
  { bone: b, weight: 1 - wa },
];

type Side = 'left' | 'right';
const sideBone = (side: Side, bone: string): HumanBone => `${side}${bone}` as HumanBone;
const signOf = (side: Side) => (side === 'left' ? 1 : -1);

/** [y, half width, half depth, skin, centre z] rings of a vertical loft. */
type VerticalRing = [number, number, number, Influence[], number?];
function vertical(rings: VerticalRing[], x = 0): Ring[] {
  return rings.map(([y, w, d, skin, z]) => ({ center: [x, y, z ?? 0], w, d, skin }));
}

/** The torso's key rings, shared with the clipping test through `TORSO_PROFILE`. */
const TORSO: VerticalRing[] = [
  [0.79, 0.12, 0.085, only('hips')],
  [0.86, 0.148, 0.095, only('hips')],
  [0.96, 0.138, 0.088, blend('hips', 'spine')],
  [1.05, 0.118, 0.08, only('spine'), 0.002],
  [1.12, 0.124, 0.084, blend('spine', 'chest'), 0.004],
  [1.19, 0.138, 0.094, only('chest'), 0.01],
  [1.25, 0.146, 0.094, blend('chest', 'upperChest'), 0.008],
  [1.31, 0.152, 0.085, only('upperChest'), 0],
  [1.355, 0.125, 0.07, only('upperChest'), -0.005],
  [1.38, 0.055, 0.045, only('upperChest'), -0.005],
];

/** Half width and depth of the torso at its key heights, for checks that hands stay outside it. */
export const TORSO_PROFILE = TORSO.map(([y, w, d, , z]) => ({ y, w, d, z: z ?? 0 }));
/** The torso's cross-section is a superellipse: a rounded box. */
export const TORSO_EXPONENT = 2.4;

function torso(b: MeshBuilder): void {
  // The last band, round the neck, is a white trim.
  const materials = ['trousers', 'trousers', ...Array<string>(6).fill('shirt'), 'collar'];
  loft(b, { frame: { w: X, d: Z }, rings: vertical(TORSO), material: materials, exponent: TORSO_EXPONENT, segments: 32, caps: { start: 0.01, end: 0.005 } });
}

function neck(b: MeshBuilder): void {
  loft(b, {
    frame: { w: X, d: Z },
    rings: vertical([
      [1.34, 0.04, 0.04, only('upperChest'), -0.006],
      [1.4, 0.036, 0.037, only('neck'), -0.002],
      [1.45, 0.036, 0.037, blend('neck', 'head'), 0],
    ]),
    material: 'skin',
    segments: 16,
  });
}

/** [x, half width (along Z), half depth (along Y), skin] rings along the arm, mirrored for the right side. */
function alongArm(side: Side, rings: Array<[number, number, number, Influence[]]>, y = 1.335): Ring[] {
  return rings.map(([x, w, d, skin]) => ({ center: [signOf(side) * x, y, 0], w, d, skin }));
}

function arm(b: MeshBuilder, side: Side): void {
  const shoulder = sideBone(side, 'Shoulder');
  const upper = sideBone(side, 'UpperArm');
  const lower = sideBone(side, 'LowerArm');
  const hand = sideBone(side, 'Hand');
  const frame = { w: Z, d: Y };
  loft(b, {
    frame,
    rings: alongArm(side, [
      [0.08, 0.05, 0.052, only(shoulder)],
      [0.15, 0.047, 0.049, blend(shoulder, upper, 0.35)],
      [0.25, 0.043, 0.044, only(upper)],
    ]),
    material: 'shirt',
    caps: { start: 0.01, end: 0 },
  });
  // Arm and mitten hand in one surface: the palm faces down in T-pose, so the hand is wide along Z.
  loft(b, {
    frame,
    rings: alongArm(side, [
      [0.2, 0.035, 0.035, only(upper)],
      [0.38, 0.032, 0.031, only(upper)],
      [0.41, 0.031, 0.03, blend(upper, lower)],
      [0.44, 0.03, 0.029, only(lower)],
      [0.6, 0.023, 0.02, only(lower)],
      [0.64, 0.022, 0.017, blend(lower, hand)],
      [0.67, 0.03, 0.016, only(hand)],
      [0.715, 0.034, 0.018, only(hand)],
      [0.75, 0.029, 0.014, only(hand)],
    ]),
    material: 'skin',
    segments: 18,
    caps: { start: 0, end: 0.014 },
  });
  const sign = signOf(side);
  segment(b, [sign * 0.655, 1.332, 0.018], [sign * 0.7, 1.326, 0.045], 0.0095, only(hand), 'skin');
}

function leg(b: MeshBuilder, side: Side): void {
  const sign = signOf(side);
  const upper = sideBone(side, 'UpperLeg');
  const lower = sideBone(side, 'LowerLeg');
  const foot = sideBone(side, 'Foot');
  const toes = sideBone(side, 'Toes');
  loft(b, {
    frame: { w: X, d: Z },
    rings: vertical(
      [
        [0.9, 0.062, 0.07, only(upper)],
        [0.8, 0.07, 0.074, only(upper)],
        [0.6, 0.056, 0.058, only(upper)],
        [0.49, 0.05, 0.053, blend(upper, lower)],
        [0.4, 0.048, 0.05, only(lower)],
        [0.2, 0.043, 0.045, only(lower)],
        [0.1, 0.046, 0.048, blend(lower, foot)],
      ],
      sign * 0.085,
    ),
    material: 'trousers',
    caps: { start: 0.01, end: 0 },
  });
  // Shoe soles lie exactly on y = 0: each ring's centre height equals its half height.
  const shoe = (z: number, w: number, d: number, skin: Influence[]): Ring => ({ center: [sign * 0.085, d, z], w, d, skin });
  loft(b, {
    frame: { w: X, d: Y },
    rings: [
      shoe(-0.05, 0.042, 0.04, only(foot)),
      shoe(0.04, 0.047, 0.042, only(foot)),
      shoe(0.1, 0.046, 0.034, blend(foot, toes)),
      shoe(0.16, 0.04, 0.024, only(toes)),
    ],
    material: 'shoes',
    exponent: 2.6,
    caps: { start: 0.01, end: 0.02 },
  });
}

/** A short round segment between two points, for small parts such as thumbs. */
function segment(b: MeshBuilder, from: Vec3, to: Vec3, radius: number, skin: Influence[], material: string): void {
  const dir = normalize(sub(to, from));
  const w = normalize(cross(dir, Y));
  const d = cross(w, dir);
  loft(b, {
    frame: { w, d },
    rings: [
      { center: from, w: radius, d: radius * 0.8, skin },
      { center: to, w: radius * 0.85, d: radius * 0.7, skin },
    ],
    material,
    segments: 12,
    caps: { start: 0.004, end: 0.008 },
  });
}

export function buildBody(): MeshBuilder {
  const b = new MeshBuilder();
  torso(b);
  neck(b);
  head(b);
  hair(b);
  for (const side of ['left', 'right'] as const) {
    arm(b, side);
    leg(b, side);
  }
  return b;
}
