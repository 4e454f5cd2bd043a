/** The real three.js loaders, run in Node: what a browser would get from the skin's files. */
import { VRMLoaderPlugin, type VRM } from '@pixiv/three-vrm';
import type { Group } from 'three';
import { FBXLoader } from 'three/examples/jsm/loaders/FBXLoader.js';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';

function arrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

/** Runs `load` while collecting console warnings, so tests can assert a file loads cleanly. */
export async function withWarnings<T>(load: () => Promise<T> | T): Promise<{ result: T; warnings: string[] }> {
  const warnings: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => {
    warnings.push(args.map(String).join(' '));
  };
  try {
    return { result: await load(), warnings };
  } finally {
    console.warn = original;
  }
}

export function loadVrm(bytes: Uint8Array): Promise<VRM> {
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMLoaderPlugin(parser));
  return new Promise((resolve, reject) => {
    loader.parse(
      arrayBuffer(bytes),
      '',
      (gltf) => {
        const vrm = gltf.userData.vrm as VRM | undefined;
        if (vrm) resolve(vrm);
        else reject(new Error('the file has no VRM extension'));
      },
      reject,
    );
  });
}

export function loadFbx(bytes: Uint8Array): Group {
  return new FBXLoader().parse(arrayBuffer(bytes), '');
}
