import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { VRM } from '@pixiv/three-vrm';
import { AnimationMixer, Box3, Vector3, type AnimationClip, type Group, type Mesh, type Object3D, type SkinnedMesh } from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EXPRESSIONS } from '../../scripts/skin/avatar-face.ts';
import { CLIPS } from '../../scripts/skin/clips/index.ts';
import type { HumanBone } from '../../scripts/skin/skeleton.ts';
import { animationPath, generateSkinFiles, VRM_FILE } from '../../scripts/skin/skin-files.ts';
import { loadFbx, loadVrm, withWarnings } from '../helpers/three-loaders.ts';
import { retargetMixamo as retarget } from '../../src/webui/avatar/retarget.ts';

const SKIN_DIR = fileURLToPath(new URL('../../skins/default/', import.meta.url));
const read = (path: string) => readFileSync(join(SKIN_DIR, path));

const REQUIRED_BONES = [
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

/** The default files of each logical state, as the spec names them. */
const STATE_FILES: Record<string, string[]> = {
  idle: ['Happy Idle.fbx', 'Idle.fbx', 'Idle2.fbx'],
  think: ['Thinking.fbx'],
  write: ['Texting While Standing.fbx', 'Texting.fbx'],
  talk: ['talking.fbx'],
};

const MIXAMO_BONES = [
  'Hips',
  'Spine',
  'Spine1',
  'Spine2',
  'Neck',
  'Head',
  ...['Left', 'Right'].flatMap((s) => ['Shoulder', 'Arm', 'ForeArm', 'Hand', 'UpLeg', 'Leg', 'Foot', 'ToeBase'].map((b) => s + b)),
];

const SectionSchema = z.strictObject({ start_frame: z.number().int().min(0), end_frame: z.number().int().min(0) });
const DescriptorSchema = z.strictObject({
  fps: z.number().positive(),
  intro: SectionSchema.optional(),
  loop: SectionSchema.optional(),
  outro: SectionSchema.optional(),
  play_once: z.boolean().optional(),
});

const Weight = z.number().min(0).max(1);
const PersonaSchema = z.strictObject({
  blendshape_map: z.record(z.string(), z.union([z.string(), z.record(z.string(), z.record(z.string(), Weight))])),
  emotions: z.record(z.string(), z.record(z.string(), Weight)),
  emotion_speed: z.strictObject({ default: z.number().positive(), decay: z.number().positive() }),
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [relative(SKIN_DIR, path)];
  });
}

/** Sum of |weight x displacement| over the morph targets of a mesh: non-zero when the face visibly moves. */
function morphMotion(mesh: Mesh): number {
  const targets = mesh.geometry.morphAttributes.position ?? [];
  return targets.reduce((sum, attribute, i) => {
    const weight = mesh.morphTargetInfluences?.[i] ?? 0;
    let moved = 0;
    for (let k = 0; k < attribute.array.length; k++) moved += Math.abs(attribute.array[k] as number);
    return sum + weight * moved;
  }, 0);
}

/** Plays `clip` on the avatar at `seconds` and returns what `measure` reads off the posed skeleton. */
function poseAt<T>(vrm: VRM, clip: AnimationClip, seconds: number, measure: (bone: (name: HumanBone) => Object3D) => T): T {
  const mixer = new AnimationMixer(vrm.scene);
  mixer.clipAction(clip).play();
  mixer.setTime(seconds);
  vrm.update(0);
  const result = measure((name) => {
    const node = vrm.humanoid.getNormalizedBoneNode(name);
    if (!node) throw new Error(`no ${name}`);
    return node;
  });
  mixer.stopAllAction();
  mixer.uncacheRoot(vrm.scene);
  vrm.humanoid.resetNormalizedPose();
  return result;
}

const positions = (bone: (name: HumanBone) => Object3D) => new Map(REQUIRED_BONES.map((name) => [name, bone(name).getWorldPosition(new Vector3())]));

describe('default skin', () => {
  let vrm: VRM;
  let vrmWarnings: string[];

  beforeAll(async () => {
    ({ result: vrm, warnings: vrmWarnings } = await withWarnings(() => loadVrm(read(VRM_FILE))));
  });

  describe('anima.vrm', () => {
    it('loads in three-vrm without any warning', () => {
      expect(vrmWarnings).toEqual([]);
      expect(vrm.meta.metaVersion).toBe('1');
    });

    it('binds every humanoid bone to a node of the skinned mesh skeleton', () => {
      const skinned = new Set<string>();
      vrm.scene.traverse((o: Object3D) => {
        if ('isSkinnedMesh' in o && o.isSkinnedMesh) for (const bone of (o as SkinnedMesh).skeleton.bones) skinned.add(bone.name);
      });
      for (const bone of REQUIRED_BONES) {
        const node = vrm.humanoid.getRawBoneNode(bone);
        expect(node, bone).toBeTruthy();
        expect(skinned.has(node?.name ?? ''), bone).toBe(true);
      }
    });

    it('stands about 1.6 m tall on the floor, its left side at +X and its face toward +Z', () => {
      const box = new Box3().setFromObject(vrm.scene);
      expect(box.min.y).toBeCloseTo(0, 2);
      expect(box.max.y).toBeGreaterThan(1.55);
      expect(box.max.y).toBeLessThan(1.75);
      const at = (bone: (typeof REQUIRED_BONES)[number]) => vrm.humanoid.getRawBoneNode(bone)?.getWorldPosition(new Vector3()) ?? new Vector3();
      expect(at('leftUpperArm').x).toBeGreaterThan(0);
      expect(at('leftEye').z).toBeGreaterThan(at('head').z);
    });

    it.each(EXPRESSIONS)('has a %s expression that moves the face', (name) => {
      const manager = vrm.expressionManager;
      expect(manager?.getExpression(name), name).toBeTruthy();
      const faces: Mesh[] = [];
      vrm.scene.traverse((o: Object3D) => {
        if ((o as Mesh).isMesh && (o as Mesh).morphTargetInfluences) faces.push(o as Mesh);
      });
      manager?.resetValues();
      manager?.update();
      expect(faces.reduce((s, m) => s + morphMotion(m), 0)).toBe(0);
      manager?.setValue(name, 1);
      manager?.update();
      expect(faces.reduce((s, m) => s + morphMotion(m), 0)).toBeGreaterThan(0.005);
      manager?.resetValues();
      manager?.update();
    });

    it('names the project as its author and carries a licence', () => {
      const meta = vrm.meta;
      if (meta.metaVersion !== '1') throw new Error('expected VRM 1.0 meta');
      expect(meta.name).toBe('Anima');
      expect(meta.authors.join(' ')).toContain('Anima');
      expect(meta.licenseUrl).toBe('https://vrm.dev/licenses/1.0/');
      expect(meta.allowRedistribution).toBe(true);
      expect(meta.modification).toBe('allowModificationRedistribution');
    });
  });

  describe('animations', () => {
    it('ships the default file names of every logical state, each with a descriptor', () => {
      for (const [state, names] of Object.entries(STATE_FILES)) {
        const files = readdirSync(join(SKIN_DIR, 'animations', state)).sort();
        expect(files).toEqual(names.flatMap((n) => [n, `${n}.json`]).sort());
      }
    });

    it('has a clip with intro, loop and outro, and a clip with a loop only', () => {
      const descriptors = CLIPS.map((c) => DescriptorSchema.parse(JSON.parse(read(`${animationPath(c)}.json`).toString())));
      expect(descriptors.some((d) => d.intro && d.loop && d.outro)).toBe(true);
      expect(descriptors.some((d) => d.loop && !d.intro && !d.outro)).toBe(true);
    });

    describe.each(CLIPS.map((c) => [`${c.state}/${c.name}`, c] as const))('%s', (_, clip) => {
      let asset: Group;
      let warnings: string[];
      const descriptor = DescriptorSchema.parse(JSON.parse(read(`${animationPath(clip)}.json`).toString()));
      const sections = [descriptor.intro, descriptor.loop, descriptor.outro].filter((s) => s !== undefined);
      const lastFrame = Math.max(...sections.map((s) => s.end_frame));

      beforeAll(async () => {
        ({ result: asset, warnings } = await withWarnings(() => loadFbx(read(animationPath(clip)))));
      });

      it('loads in FBXLoader without warnings, on a Mixamo rig in T-pose', () => {
        expect(warnings).toEqual([]);
        expect(asset.getObjectByName('mixamorigHips')?.userData.originalName).toBe('mixamorig:Hips');
        const x = (name: string) => asset.getObjectByName(name)?.getWorldPosition(new Vector3()).x ?? 0;
        expect(x('mixamorigLeftHand')).toBeGreaterThan(x('mixamorigLeftForeArm'));
        expect(x('mixamorigLeftForeArm')).toBeGreaterThan(x('mixamorigLeftArm'));
      });

      it('yields a clip with a rotation track per bone and a hips position track', () => {
        const [take] = asset.animations;
        const names = new Set(take?.tracks.map((t) => t.name));
        for (const bone of MIXAMO_BONES) expect(names.has(`mixamorig${bone}.quaternion`), bone).toBe(true);
        expect(names.has('mixamorigHips.position')).toBe(true);
      });

      it('lasts as long as its descriptor says, within one frame', () => {
        const duration = asset.animations[0]?.duration ?? 0;
        expect(Math.abs(duration - lastFrame / descriptor.fps)).toBeLessThanOrEqual(1 / descriptor.fps);
      });

      it('has a descriptor whose sections are in order and within the clip', () => {
        expect(sections.length).toBeGreaterThan(0);
        for (const s of sections) {
          expect(s.start_frame).toBeLessThan(s.end_frame);
          expect(s.end_frame).toBeLessThanOrEqual(lastFrame);
        }
        for (let i = 1; i < sections.length; i++) {
          expect((sections[i - 1] as { end_frame: number }).end_frame).toBeLessThanOrEqual((sections[i] as { start_frame: number }).start_frame);
        }
      });

      it('loops without a jump: the loop ends on the pose it starts with', () => {
        const loop = descriptor.loop;
        if (!loop) return;
        const target = retarget(asset, vrm);
        const start = poseAt(vrm, target, loop.start_frame / descriptor.fps, positions);
        const end = poseAt(vrm, target, loop.end_frame / descriptor.fps - 1e-4, positions);
        for (const [bone, p] of start) expect(p.distanceTo(end.get(bone) as Vector3), bone).toBeLessThan(0.01);
      });
    });

    it('drives the avatar through the usual retarget: the thinking loop holds the right hand at the chin', () => {
      const thinking = CLIPS.find((c) => c.name === 'Thinking');
      if (!thinking?.descriptor.loop) throw new Error('Thinking has no loop');
      const clip = retarget(loadFbx(read(animationPath(thinking))), vrm);
      const loop = thinking.descriptor.loop;
      const mid = (loop.start_frame + loop.end_frame) / 2 / thinking.descriptor.fps;
      // Normalised bones keep T-pose axes: the right hand runs along its local -X to the fingertips.
      const gap = poseAt(vrm, clip, mid, (bone) =>
        bone('rightHand')
          .localToWorld(new Vector3(-0.15, 0, 0))
          .distanceTo(bone('head').localToWorld(new Vector3(0, -0.01, 0.07))),
      );
      expect(gap).toBeLessThan(0.06);
    });

    it('drives the avatar through the usual retarget: idle arms hang beside the body', () => {
      const idle = CLIPS.find((c) => c.name === 'Idle');
      if (!idle) throw new Error('no Idle clip');
      const pose = poseAt(vrm, retarget(loadFbx(read(animationPath(idle))), vrm), 1, positions);
      for (const side of ['left', 'right'] as const) {
        const hand = pose.get(`${side}Hand`) as Vector3;
        expect(hand.y).toBeLessThan((pose.get('hips') as Vector3).y);
        expect(Math.abs(hand.x)).toBeGreaterThan(0.15);
      }
    });
  });

  describe('persona.json', () => {
    it('maps logical keys, visemes and emotions onto expressions the avatar has', () => {
      const persona = PersonaSchema.parse(JSON.parse(read('persona.json').toString()));
      const known = new Set<string>(EXPRESSIONS);
      const { visemes, ...keys } = persona.blendshape_map;
      for (const [key, name] of Object.entries(keys)) expect(known.has(name as string), key).toBe(true);
      expect(Object.keys(visemes ?? {})).toEqual(expect.arrayContaining(['A', 'D', 'X']));
      for (const shape of Object.values(visemes as Record<string, Record<string, number>>)) {
        for (const name of Object.keys(shape)) expect(known.has(name), name).toBe(true);
      }
      expect(Object.keys(persona.emotions)).toEqual(expect.arrayContaining(['neutral', 'happy', 'sad', 'angry', 'surprised', 'relaxed']));
      for (const face of Object.values(persona.emotions)) for (const name of Object.keys(face)) expect(known.has(name), name).toBe(true);
    });
  });

  describe('generation', () => {
    const generated = generateSkinFiles();

    it('is deterministic', () => {
      const again = generateSkinFiles();
      expect([...again.keys()]).toEqual([...generated.keys()]);
      for (const [path, bytes] of generated) expect(again.get(path)?.equals(bytes), path).toBe(true);
    });

    it('matches the committed files (run npm run make:skin after changing scripts/skin)', () => {
      for (const [path, bytes] of generated) expect(read(path).equals(bytes), path).toBe(true);
      expect(filesUnder(SKIN_DIR).sort()).toEqual([...generated.keys(), 'README.md'].sort());
    });

    it('stays small', () => {
      const total = [...generated.values()].reduce((sum, b) => sum + b.length, 0);
      expect(total).toBeLessThan(2 * 1024 * 1024);
    });
  });
});
