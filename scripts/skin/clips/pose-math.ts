/** Blending, layering and keyframing of poses: the vocabulary the clip definitions are written in. */
import type { ArmPose, Pose, RotatedBone, Side } from '../pose.ts';
import type { Vec3 } from '../skeleton.ts';
import { add, lerp, normalize, scale } from '../vec.ts';

/** Additive change to a pose; arm entries are added to the directions before renormalising. */
export interface PoseDelta {
  hips?: Vec3;
  rotations?: Partial<Record<RotatedBone, Vec3>>;
  arms?: Partial<Record<Side, Partial<ArmPose>>>;
}

const ZERO: Vec3 = [0, 0, 0];

export const smoothstep = (t: number): number => {
  const x = Math.min(1, Math.max(0, t));
  return x * x * (3 - 2 * x);
};

/** A wave that repeats `cycles` times over `length` frames, so loops join without a seam. */
export const wave = (frame: number, length: number, cycles = 1, phase = 0): number => Math.sin((2 * Math.PI * cycles * frame) / length + phase);

function mixArm(a: ArmPose, b: ArmPose, t: number): ArmPose {
  return {
    upper: normalize(lerp(a.upper, b.upper, t)),
    lower: normalize(lerp(a.lower, b.lower, t)),
    hand: normalize(lerp(a.hand, b.hand, t)),
    twist: a.twist + (b.twist - a.twist) * t,
  };
}

export function mix(a: Pose, b: Pose, t: number): Pose {
  const bones = new Set([...Object.keys(a.rotations), ...Object.keys(b.rotations)] as RotatedBone[]);
  const rotations: Pose['rotations'] = {};
  for (const bone of bones) rotations[bone] = lerp(a.rotations[bone] ?? ZERO, b.rotations[bone] ?? ZERO, t);
  return {
    hips: lerp(a.hips, b.hips, t),
    rotations,
    arms: { left: mixArm(a.arms.left, b.arms.left, t), right: mixArm(a.arms.right, b.arms.right, t) },
  };
}

function addArm(arm: ArmPose, d: Partial<ArmPose> | undefined): ArmPose {
  if (!d) return arm;
  return {
    upper: normalize(add(arm.upper, d.upper ?? ZERO)),
    lower: normalize(add(arm.lower, d.lower ?? ZERO)),
    hand: normalize(add(arm.hand, d.hand ?? ZERO)),
    twist: arm.twist + (d.twist ?? 0),
  };
}

export function layer(pose: Pose, ...deltas: PoseDelta[]): Pose {
  return deltas.reduce<Pose>((p, d) => {
    const rotations = { ...p.rotations };
    for (const [bone, r] of Object.entries(d.rotations ?? {}) as Array<[RotatedBone, Vec3]>) {
      rotations[bone] = add(rotations[bone] ?? ZERO, r);
    }
    return {
      hips: add(p.hips, d.hips ?? ZERO),
      rotations,
      arms: { left: addArm(p.arms.left, d.arms?.left), right: addArm(p.arms.right, d.arms?.right) },
    };
  }, pose);
}

/** Scales every component of a delta, for waves: `scaleDelta(nod, wave(f, 90))`. */
export function scaleDelta(d: PoseDelta, s: number): PoseDelta {
  const arm = (a: Partial<ArmPose> | undefined): Partial<ArmPose> | undefined =>
    a && {
      ...(a.upper && { upper: scale(a.upper, s) }),
      ...(a.lower && { lower: scale(a.lower, s) }),
      ...(a.hand && { hand: scale(a.hand, s) }),
      ...(a.twist !== undefined && { twist: a.twist * s }),
    };
  const rotations = Object.fromEntries(Object.entries(d.rotations ?? {}).map(([k, v]) => [k, scale(v, s)]));
  const left = arm(d.arms?.left);
  const right = arm(d.arms?.right);
  return {
    ...(d.hips && { hips: scale(d.hips, s) }),
    rotations,
    arms: { ...(left && { left }), ...(right && { right }) },
  };
}

/** The right arm as the mirror image of a left arm (X flips, so does the roll). */
export function mirrorArm(arm: ArmPose): ArmPose {
  const m = (v: Vec3): Vec3 => [-v[0], v[1], v[2]];
  return { upper: m(arm.upper), lower: m(arm.lower), hand: m(arm.hand), twist: -arm.twist };
}

export interface Key {
  frame: number;
  pose: Pose;
}

/** Eased interpolation between keyed poses; frames outside the keys hold the nearest key. */
export function keyed(keys: readonly Key[], frame: number): Pose {
  const first = keys[0];
  if (!first) throw new Error('no keys');
  if (frame <= first.frame) return first.pose;
  for (let i = 0; i + 1 < keys.length; i++) {
    const a = keys[i] as Key;
    const b = keys[i + 1] as Key;
    if (frame <= b.frame) return mix(a.pose, b.pose, smoothstep((frame - a.frame) / (b.frame - a.frame)));
  }
  return (keys[keys.length - 1] as Key).pose;
}
