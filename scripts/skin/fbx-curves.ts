/**
 * Turns a clip into per-bone animation curves on the rig: samples every frame, converts normalised
 * rotations into the rig's local frames, then drops frames that linear interpolation reproduces anyway.
 */
import { Euler, MathUtils, Quaternion, Vector3 } from 'three';
import type { Clip } from './clips/clip.ts';
import { CM_PER_M, RIG, type RigBone } from './mixamo-rig.ts';
import { solvePose } from './pose.ts';

/** Largest error the decimation may introduce: a tenth of a degree, or half a millimetre for the hips. */
const MAX_ANGLE_ERROR = MathUtils.degToRad(0.1);
const MAX_POSITION_ERROR_CM = 0.05;

export interface Curves {
  frames: number[];
  /** One [x, y, z] per kept frame: degrees for rotations (FBX XYZ order), centimetres for translation. */
  values: Array<[number, number, number]>;
}

export interface BoneCurves {
  bone: RigBone;
  rotation: Curves;
  translation?: Curves;
}

/**
 * The rig bone's Lcl Rotation for a normalised rotation `n`: the retarget maps a clip back with
 * n = parentRestWorld * (preRotation * lcl) * restWorld⁻¹, so lcl = restWorld⁻¹ * n * restWorld.
 */
function rigLocal(bone: RigBone, n: Quaternion): Quaternion {
  return bone.rest.clone().invert().multiply(n).multiply(bone.rest);
}

function keepFrames(count: number, fits: (a: number, b: number, f: number) => boolean): number[] {
  const kept = [0];
  let a = 0;
  for (let b = 2; b < count; b++) {
    for (let f = a + 1; f < b; f++) {
      if (!fits(a, b, f)) {
        a = b - 1;
        kept.push(a);
        break;
      }
    }
  }
  if (count > 1) kept.push(count - 1);
  return kept;
}

function rotationCurves(samples: Quaternion[]): Curves {
  const frames = keepFrames(samples.length, (a, b, f) => {
    const expected = (samples[a] as Quaternion).clone().slerp(samples[b] as Quaternion, (f - a) / (b - a));
    return expected.angleTo(samples[f] as Quaternion) <= MAX_ANGLE_ERROR;
  });
  const values: Array<[number, number, number]> = [];
  let previous: [number, number, number] | null = null;
  for (const f of frames) {
    const e = new Euler().setFromQuaternion(samples[f] as Quaternion, 'ZYX');
    const deg = [e.x, e.y, e.z].map((r) => MathUtils.radToDeg(r)) as [number, number, number];
    // Keep each angle within 180 degrees of the previous key so readers never interpolate the long way round.
    if (previous) {
      const prev: [number, number, number] = previous;
      deg.forEach((d, i) => {
        deg[i] = d + 360 * Math.round(((prev[i] as number) - d) / 360);
      });
    }
    values.push(deg);
    previous = deg;
  }
  return { frames, values };
}

function translationCurves(samples: Vector3[]): Curves {
  const frames = keepFrames(samples.length, (a, b, f) => {
    const expected = (samples[a] as Vector3).clone().lerp(samples[b] as Vector3, (f - a) / (b - a));
    return expected.distanceTo(samples[f] as Vector3) <= MAX_POSITION_ERROR_CM;
  });
  return { frames, values: frames.map((f) => (samples[f] as Vector3).toArray() as [number, number, number]) };
}

export function clipCurves(clip: Clip): BoneCurves[] {
  const poses = Array.from({ length: clip.lastFrame + 1 }, (_, f) => solvePose(clip.pose(f)));
  return RIG.flatMap((bone) => {
    const human = bone.human;
    if (!human) return [];
    const rotation = rotationCurves(poses.map((p) => rigLocal(bone, p.rotations.get(human) ?? new Quaternion())));
    if (human !== 'hips') return [{ bone, rotation }];
    const translation = translationCurves(poses.map((p) => new Vector3(...p.hipsPosition).multiplyScalar(CM_PER_M)));
    return [{ bone, rotation, translation }];
  });
}
