/**
 * Animation files to three.js clips for the current VRM: FBX (Mixamo rig) through FBXLoader and the
 * retarget, VRMA through three-vrm-animation. Each file is fetched and parsed once per model; the
 * loaders are imported on first use so they do not delay the first avatar frame.
 */
import type { VRM } from '@pixiv/three-vrm';
import type { AnimationClip } from 'three';

export class ClipLibrary {
  private readonly clips = new Map<string, Promise<AnimationClip>>();

  constructor(
    private readonly vrm: VRM,
    /** Parsing waits for this (the first avatar frame), so it never delays what the user sees first. */
    private readonly after: Promise<void>,
  ) {}

  load(url: string): Promise<AnimationClip> {
    let clip = this.clips.get(url);
    if (!clip) {
      clip = this.fetchClip(url);
      this.clips.set(url, clip);
      // A failed load may succeed later (the server was restarting); do not remember the failure.
      clip.catch(() => this.clips.delete(url));
    }
    return clip;
  }

  private async fetchClip(url: string): Promise<AnimationClip> {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
    const bytes = await response.arrayBuffer();
    await this.after;
    const path = decodeURIComponent(new URL(url, location.href).pathname).toLowerCase();
    if (path.endsWith('.vrma')) return this.parseVrma(bytes);
    const [{ FBXLoader }, { retargetMixamo }] = await Promise.all([import('three/examples/jsm/loaders/FBXLoader.js'), import('./retarget.ts')]);
    return retargetMixamo(new FBXLoader().parse(bytes, ''), this.vrm);
  }

  private async parseVrma(bytes: ArrayBuffer): Promise<AnimationClip> {
    const [{ GLTFLoader }, { VRMAnimationLoaderPlugin, createVRMAnimationClip }] = await Promise.all([
      import('three/examples/jsm/loaders/GLTFLoader.js'),
      import('@pixiv/three-vrm-animation'),
    ]);
    const loader = new GLTFLoader();
    loader.register((parser) => new VRMAnimationLoaderPlugin(parser));
    const gltf = await loader.parseAsync(bytes, '');
    const animation = (gltf.userData as { vrmAnimations?: Parameters<typeof createVRMAnimationClip>[0][] }).vrmAnimations?.[0];
    if (!animation) throw new Error('the VRMA file has no VRM animation');
    return createVRMAnimationClip(animation, this.vrm);
  }
}
