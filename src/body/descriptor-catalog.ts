import { join } from 'node:path';
import type { Descriptor } from './descriptor.ts';
import { isSafeSegment, listStateFolders, readStateFolder, type WarnLogger } from './skin-files.ts';

export interface CatalogEntry {
  /** `<skin>/<state>/<file>` */
  descriptor_id: string;
  skin: string;
  state: string;
  file: string;
  animation_url: string;
  descriptor: Descriptor;
}

/** Every valid descriptor of these skins, reusable by id (GET /api/body/animations/manifest). */
export async function listDescriptors(skinsDir: string, skins: string[], logger: WarnLogger): Promise<CatalogEntry[]> {
  const entries: CatalogEntry[] = [];
  for (const skin of new Set(skins)) {
    const root = join(skinsDir, skin);
    for (const state of (await listStateFolders(root)).sort()) {
      for (const file of await readStateFolder(root, state, skinsDir, logger)) {
        if (!file.descriptor) continue;
        entries.push({ descriptor_id: `${skin}/${state}/${file.name}`, skin, state, file: file.name, animation_url: file.url, descriptor: file.descriptor });
      }
    }
  }
  return entries;
}

/** The entry a descriptor id names, or undefined (also for ids that try to leave the skins folder). */
export async function resolveDescriptor(skinsDir: string, descriptorId: string, logger: WarnLogger): Promise<CatalogEntry | undefined> {
  const parts = descriptorId.split('/');
  if (parts.length !== 3 || !parts.every(isSafeSegment)) return undefined;
  const [skin, state, name] = parts as [string, string, string];
  const files = await readStateFolder(join(skinsDir, skin), state, skinsDir, logger);
  const file = files.find((candidate) => candidate.name === name);
  if (!file?.descriptor) return undefined;
  return { descriptor_id: descriptorId, skin, state, file: file.name, animation_url: file.url, descriptor: file.descriptor };
}
