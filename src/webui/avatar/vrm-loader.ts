import { type VRM, VRMLoaderPlugin, VRMUtils } from '@pixiv/three-vrm';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { cachedBytes } from './asset-cache.ts';

/** Fetches (or takes from Cache Storage by hash) and parses a VRM 0.x or 1.0 model. */
export async function loadVrm(url: string, hash?: string): Promise<VRM> {
  const bytes = await cachedBytes(url, hash);
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMLoaderPlugin(parser));
  const gltf = await loader.parseAsync(bytes, new URL('.', new URL(url, location.href)).href);
  const vrm = gltf.userData.vrm as VRM | undefined;
  if (!vrm) throw new Error(`${url} is not a VRM model`);
  VRMUtils.removeUnnecessaryVertices(gltf.scene);
  VRMUtils.combineSkeletons(gltf.scene);
  VRMUtils.rotateVRM0(vrm);
  // Animated bones move the mesh outside its bind-pose bounds; culling would clip arms at the screen edge.
  vrm.scene.traverse((object) => (object.frustumCulled = false));
  return vrm;
}
