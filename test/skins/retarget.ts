/**
 * The usual Mixamo-to-VRM retarget (rest-pose compensation through the parent's world rotation, hips
 * motion scaled by the ratio of hips heights), used to check that the clips drive the avatar sensibly.
 */
import type { VRM } from '@pixiv/three-vrm';
import { AnimationClip, type Group, type KeyframeTrack, Quaternion, QuaternionKeyframeTrack, Vector3, VectorKeyframeTrack } from 'three';
import type { HumanBone } from '../../scripts/skin/skeleton.ts';

const MIXAMO_TO_VRM: Record<string, HumanBone> = {
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

export function retarget(asset: Group, vrm: VRM): AnimationClip {
  const clip = AnimationClip.findByName(asset.animations, 'mixamo.com');
  if (!clip) throw new Error('no mixamo.com take');
  const v = new Vector3();
  const motionHipsHeight = asset.getObjectByName('mixamorigHips')?.position.y ?? 1;
  const vrmHipsHeight = Math.abs((vrm.humanoid.getNormalizedBoneNode('hips')?.getWorldPosition(v).y ?? 0) - vrm.scene.getWorldPosition(v).y);
  const hipsScale = vrmHipsHeight / motionHipsHeight;
  const tracks: KeyframeTrack[] = [];
  for (const track of clip.tracks) {
    const [rigName, property] = track.name.split('.') as [string, string];
    const bone = MIXAMO_TO_VRM[rigName];
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
      }
      tracks.push(new QuaternionKeyframeTrack(`${node.name}.quaternion`, Array.from(track.times), values));
    } else if (property === 'position') {
      tracks.push(new VectorKeyframeTrack(`${node.name}.position`, Array.from(track.times), Array.from(track.values, (x) => x * hipsScale)));
    }
  }
  return new AnimationClip('vrm', clip.duration, tracks);
}
