/**
 * The avatar's body: a stylised figure in T-pose built from lofts. Rings on a joint are weighted half to
 * each bone so torso, elbows and knees bend as one surface instead of splitting apart.
 */
import { loft, type Ring } from './loft.ts';
import { MeshBuilder, type Influence } from './mesh-builder.ts';
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

/** [y, half width, half depth, skin] rings of a vertical loft centred on x = 0 unless `x` is given. */
function vertical(rings: Array<[number, number, number, Influence[]]>, x = 0, z = 0): Ring[] {
  return rings.map(([y, w, d, skin]) => ({ center: [x, y, z], w, d, skin }));
}

function torso(b: MeshBuilder): void {
  const rings = vertical([
    [0.8, 0.145, 0.09, only('hips')],
    [0.92, 0.14, 0.095, only('hips')],
    [1.0, 0.13, 0.09, blend('hips', 'spine')],
    [1.06, 0.125, 0.088, only('spine')],
    [1.11, 0.13, 0.092, blend('spine', 'chest')],
    [1.17, 0.14, 0.1, only('chest')],
    [1.22, 0.15, 0.105, blend('chest', 'upperChest')],
    [1.3, 0.16, 0.1, only('upperChest')],
    [1.36, 0.14, 0.085, only('upperChest')],
    [1.39, 0.06, 0.05, only('upperChest')],
  ]);
  const materials = ['trousers', 'trousers', ...Array<string>(7).fill('shirt')];
  loft(b, { frame: { w: X, d: Z }, chamfer: 0.55, rings, materials, caps: { start: 'trousers', end: 'shirt' } });
}

function neckAndHead(b: MeshBuilder): void {
  loft(b, {
    frame: { w: X, d: Z },
    chamfer: 0.45,
    rings: vertical([
      [1.33, 0.042, 0.045, only('upperChest')],
      [1.4, 0.042, 0.045, only('neck')],
      [1.47, 0.042, 0.045, blend('neck', 'head')],
    ]),
    materials: ['skin', 'skin'],
    caps: {},
  });
  // The face rings share one front depth so the eyes and mouth sit on a single flat plane.
  loft(b, {
    frame: { w: X, d: Z },
    chamfer: 0.62,
    rings: vertical([
      [1.425, 0.065, 0.07, only('head')],
      [1.455, 0.092, 0.095, only('head')],
      [1.52, 0.1, 0.095, only('head')],
      [1.585, 0.1, 0.095, only('head')],
      [1.63, 0.085, 0.082, only('head')],
      [1.645, 0.05, 0.05, only('head')],
    ]),
    materials: Array<string>(5).fill('skin'),
    caps: { start: 'skin', end: 'skin' },
  });
}

function hair(b: MeshBuilder): void {
  loft(b, {
    frame: { w: X, d: Z },
    chamfer: 0.62,
    rings: vertical([
      [1.572, 0.108, 0.104, only('head')],
      [1.605, 0.108, 0.104, only('head')],
      [1.645, 0.093, 0.09, only('head')],
      [1.665, 0.055, 0.055, only('head')],
    ]),
    materials: ['hair', 'hair', 'hair'],
    caps: { start: 'hair', end: 'hair' },
  });
  loft(b, {
    frame: { w: X, d: Z },
    chamfer: 0.75,
    rings: vertical(
      [
        [1.45, 0.106, 0.05, only('head')],
        [1.6, 0.108, 0.05, only('head')],
      ],
      0,
      -0.055,
    ),
    materials: ['hair'],
    caps: { start: 'hair', end: 'hair' },
  });
}

/** [x, half width, half depth, skin] rings along the arm, mirrored for the right side. */
function alongArm(side: Side, rings: Array<[number, number, number, Influence[]]>, y = 1.335): Ring[] {
  const sign = side === 'left' ? 1 : -1;
  return rings.map(([x, w, d, skin]) => ({ center: [sign * x, y, 0], w, d, skin }));
}

function arm(b: MeshBuilder, side: Side): void {
  const shoulder = sideBone(side, 'Shoulder');
  const upper = sideBone(side, 'UpperArm');
  const lower = sideBone(side, 'LowerArm');
  const hand = sideBone(side, 'Hand');
  const frame = { w: Z, d: Y };
  loft(b, {
    frame,
    chamfer: 0.45,
    rings: alongArm(side, [
      [0.1, 0.055, 0.056, only(shoulder)],
      [0.16, 0.053, 0.054, blend(shoulder, upper, 0.3)],
      [0.27, 0.048, 0.049, only(upper)],
    ]),
    materials: ['shirt', 'shirt'],
    caps: { start: 'shirt', end: 'shirt' },
  });
  loft(b, {
    frame,
    chamfer: 0.45,
    rings: alongArm(side, [
      [0.16, 0.04, 0.042, only(upper)],
      [0.39, 0.037, 0.038, only(upper)],
      [0.41, 0.036, 0.037, blend(upper, lower)],
      [0.44, 0.035, 0.035, only(lower)],
      [0.62, 0.028, 0.028, only(lower)],
      [0.645, 0.028, 0.027, blend(lower, hand)],
    ]),
    materials: Array<string>(5).fill('skin'),
    caps: { end: 'skin' },
  });
  // The palm faces down in T-pose, so the hand is wide along Z and thin along Y.
  loft(b, {
    frame,
    chamfer: 0.7,
    rings: alongArm(
      side,
      [
        [0.635, 0.03, 0.018, only(hand)],
        [0.7, 0.042, 0.02, only(hand)],
        [0.77, 0.04, 0.015, only(hand)],
        [0.79, 0.032, 0.012, only(hand)],
      ],
      1.333,
    ),
    materials: ['skin', 'skin', 'skin'],
    caps: { start: 'skin', end: 'skin' },
  });
  const sign = side === 'left' ? 1 : -1;
  segment(b, [sign * 0.66, 1.33, 0.03], [sign * 0.715, 1.325, 0.068], 0.012, only(hand), 'skin');
}

function leg(b: MeshBuilder, side: Side): void {
  const sign = side === 'left' ? 1 : -1;
  const upper = sideBone(side, 'UpperLeg');
  const lower = sideBone(side, 'LowerLeg');
  const foot = sideBone(side, 'Foot');
  const toes = sideBone(side, 'Toes');
  loft(b, {
    frame: { w: X, d: Z },
    chamfer: 0.45,
    rings: vertical(
      [
        [0.9, 0.05, 0.06, only(upper)],
        [0.8, 0.07, 0.072, only(upper)],
        [0.55, 0.055, 0.058, only(upper)],
        [0.49, 0.052, 0.055, blend(upper, lower)],
        [0.43, 0.05, 0.053, only(lower)],
        [0.15, 0.04, 0.043, only(lower)],
        [0.1, 0.042, 0.045, blend(lower, foot)],
      ],
      sign * 0.085,
    ),
    materials: Array<string>(6).fill('trousers'),
    caps: { start: 'trousers', end: 'trousers' },
  });
  // Shoe soles lie exactly on y = 0: each ring's centre height equals its half height.
  const shoe = (z: number, w: number, d: number, skin: Influence[]): Ring => ({ center: [sign * 0.085, d, z], w, d, skin });
  loft(b, {
    frame: { w: X, d: Y },
    chamfer: 0.75,
    rings: [
      shoe(-0.05, 0.045, 0.045, only(foot)),
      shoe(0.08, 0.048, 0.04, only(foot)),
      shoe(0.1, 0.047, 0.035, blend(foot, toes)),
      shoe(0.18, 0.044, 0.025, only(toes)),
    ],
    materials: ['shoes', 'shoes', 'shoes'],
    caps: { start: 'shoes', end: 'shoes' },
  });
}

/** A short round segment between two points, for small parts such as thumbs. */
function segment(b: MeshBuilder, from: Vec3, to: Vec3, radius: number, skin: Influence[], material: string): void {
  const dir = normalize(sub(to, from));
  const w = normalize(cross(dir, Y));
  const d = cross(w, dir);
  loft(b, {
    frame: { w, d },
    chamfer: 0.45,
    rings: [
      { center: from, w: radius, d: radius, skin },
      { center: to, w: radius * 0.85, d: radius * 0.85, skin },
    ],
    materials: [material],
    caps: { start: material, end: material },
  });
}

export function buildBody(): MeshBuilder {
  const b = new MeshBuilder();
  torso(b);
  neckAndHead(b);
  hair(b);
  for (const side of ['left', 'right'] as const) {
    arm(b, side);
    leg(b, side);
  }
  return b;
}
