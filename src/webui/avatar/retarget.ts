/**
 * Mixamo rig to VRM humanoid: each track is re-expressed in the normalized VRM bones' space (rest-pose
 * compensation through the parent's world rotation), and hips motion is scaled by the ratio of hips
 * heights. The same approach as three-vrm's own Mixamo example; the skin tests run this very module.
 */
import type { VRM } from '@pixiv/three-vrm';
import { AnimationClip, type Group, type KeyframeTrack, Quaternion, QuaternionKeyframeTrack, Vector3, VectorKeyframeTrack } from 'three';

/** Derived from the API rather than imported: the name's export differs between module resolutions. */
type VRMHumanBoneName = Parameters<VRM['humanoid']['getNormalizedBoneNode']>[0];

const MIXAMO_TO_VRM: Record<string, VRMHumanBoneName> = {
  mixamorigHips: 'hips',
  mixamorigSpine: 'spine',
  mixamorigSpine1: 'chest',
  mixamorigSpine2: 'upperChest',
  mixamorigNeck: 'neck',
  mixamorigHead: 'head',
  mixamorigLeftShoulder: 'leftShoulder',
  mixamorigLeftArm: 'leftUpperArm',
  mixamorigLeftForeArm: 'leftLowerArm',
  mixamorigLeftHand: 'leftHand',
  mixamorigRightShoulder: 'rightShoulder',
  mixamorigRightArm: 'rightUpperArm',
  mixamorigRightForeArm: 'rightLowerArm',
  mixamorigRightHand: 'rightHand',
  mixamorigLeftUpLeg: 'leftUpperLeg',
  mixamorigLeftLeg: 'leftLowerLeg',
  mixamorigLeftFoot: 'leftFoot',
  mixamorigLeftToeBase: 'leftToes',
  mixamorigRightUpLeg: 'rightUpperLeg',
  mixamorigRightLeg: 'rightLowerLeg',
  mixamorigRightFoot: 'rightFoot',
  mixamorigRightToeBase: 'rightToes',
};

/** Mixamo exports name the rig `mixamorig:Hips` or `mixamorigHips`; the colon is dropped by three's FBXLoader anyway. */
function rigBone(name: string): VRMHumanBoneName | undefined {
  return MIXAMO_TO_VRM[name.replace(':', '')];
}

export function retargetMixamo(asset: Group, vrm: VRM): AnimationClip {
  const clip = AnimationClip.findByName(asset.animations, 'mixamo.com') ?? asset.animations[0];
  if (!clip) throw new Error('the FBX file has no animation take');
  const v = new Vector3();
  const motionHipsHeight = asset.getObjectByName('mixamorigHips')?.position.y ?? 1;
  const vrmHipsHeight = Math.abs((vrm.humanoid.getNormalizedBoneNode('hips')?.getWorldPosition(v).y ?? 0) - vrm.scene.getWorldPosition(v).y);
  const hipsScale = vrmHipsHeight / motionHipsHeight;
  // VRM 0.x faces -Z, so its rotations mirror X and Z (three-vrm's Mixamo example does the same).
  const vrm0 = vrm.meta.metaVersion === '0';
  const tracks: KeyframeTrack[] = [];
  for (const track of clip.tracks) {
    const [rigName = '', property] = track.name.split('.');
    const bone = rigBone(rigName);
    const node = bone && vrm.humanoid.getNormalizedBoneNode(bone);
    const rigNode = asset.getObjectByName(rigName);
    if (!node || !rigNode?.parent) continue;
    const restInverse = rigNode.getWorldQuaternion(new Quaternion()).invert();
    const parentRest = rigNode.parent.getWorldQuaternion(new Quaternion());
    if (property === 'quaternion') {
      const values = Array.from(track.values);
      const q = new Quaternion();
      for (let i = 0; i < values.length; i += 4) {
        q.fromArray(values, i).premultiply(parentRest).multiply(restInverse).toArray(values, i);
        if (vrm0) {
          values[i] = -(values[i] ?? 0);
          values[i + 2] = -(values[i + 2] ?? 0);
        }
      }
      tracks.push(new QuaternionKeyframeTrack(`${node.name}.quaternion`, Array.from(track.times), values));
    } else if (property === 'position' && bone === 'hips') {
      const values = Array.from(track.values, (x, i) => (vrm0 && i % 3 !== 1 ? -x : x) * hipsScale);
      tracks.push(new VectorKeyframeTrack(`${node.name}.position`, Array.from(track.times), values));
    }
  }
  return new AnimationClip('vrm', clip.duration, tracks);
}
