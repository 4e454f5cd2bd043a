/** Every generated file of the default skin, as bytes keyed by path relative to the skin folder. */
import { CLIPS } from './clips/index.ts';
import { clipToFbx } from './fbx-animation.ts';
import { PERSONA } from './persona.ts';
import { buildVrm } from './vrm-model.ts';

export const VRM_FILE = 'anima.vrm';

const json = (value: unknown): Buffer => Buffer.from(`${JSON.stringify(value, null, 2)}\n`, 'utf8');

export function animationPath(clip: { state: string; name: string }): string {
  return `animations/${clip.state}/${clip.name}.fbx`;
}

export function generateSkinFiles(): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  files.set(VRM_FILE, buildVrm());
  files.set('persona.json', json(PERSONA));
  for (const clip of CLIPS) {
    files.set(animationPath(clip), Buffer.from(clipToFbx(clip), 'utf8'));
    files.set(`${animationPath(clip)}.json`, json(clip.descriptor));
  }
  return files;
}
