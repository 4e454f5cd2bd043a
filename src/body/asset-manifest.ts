import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { byName, isAnimationFile, readEntries, skinUrl } from './skin-files.ts';

export type AssetKind = 'vrm' | 'animation' | 'descriptor' | 'persona';

export interface Asset {
  url: string;
  hash: string;
  size: number;
  kind: AssetKind;
}

interface CachedHash {
  mtimeMs: number;
  size: number;
  hash: Promise<string>;
}

/** `sha256:<hex>` of files, remembered until a file's mtime or size changes. */
export class FileHasher {
  private readonly cache = new Map<string, CachedHash>();

  async hash(path: string): Promise<{ hash: string; size: number } | undefined> {
    let info;
    try {
      info = await stat(path);
    } catch {
      this.cache.delete(path);
      return undefined;
    }
    if (!info.isFile()) return undefined;
    let cached = this.cache.get(path);
    if (!cached || cached.mtimeMs !== info.mtimeMs || cached.size !== info.size) {
      cached = { mtimeMs: info.mtimeMs, size: info.size, hash: digestFile(path) };
      this.cache.set(path, cached);
    }
    try {
      return { hash: await cached.hash, size: info.size };
    } catch {
      this.cache.delete(path);
      return undefined;
    }
  }
}

function digestFile(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const digest = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => digest.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(`sha256:${digest.digest('hex')}`));
  });
}

/** The files of one skin a client may cache: models, persona, animations and descriptors. */
async function skinFiles(skinsDir: string, skin: string): Promise<Array<{ path: string; kind: AssetKind }>> {
  const root = join(skinsDir, skin);
  const files: Array<{ path: string; kind: AssetKind }> = [];
  for (const entry of (await readEntries(root)).sort((a, b) => byName(a.name, b.name))) {
    if (!entry.isFile()) continue;
    if (entry.name.endsWith('.vrm')) files.push({ path: join(root, entry.name), kind: 'vrm' });
    if (entry.name === 'persona.json') files.push({ path: join(root, entry.name), kind: 'persona' });
  }
  const states = (await readEntries(join(root, 'animations'))).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  for (const state of states.sort(byName)) {
    const folder = join(root, 'animations', state);
    for (const entry of (await readEntries(folder)).sort((a, b) => byName(a.name, b.name))) {
      if (!entry.isFile()) continue;
      if (isAnimationFile(entry.name)) files.push({ path: join(folder, entry.name), kind: 'animation' });
      else if (entry.name.endsWith('.json') && isAnimationFile(entry.name.slice(0, -5))) files.push({ path: join(folder, entry.name), kind: 'descriptor' });
    }
  }
  return files;
}

/** The content-hash manifest of the active and fallback skins, for client caches. */
export class AssetManifest {
  constructor(
    private readonly skinsDir: string,
    private readonly skins: () => string[],
    private readonly hasher = new FileHasher(),
  ) {}

  hashFile(path: string) {
    return this.hasher.hash(path);
  }

  async list(): Promise<Asset[]> {
    const assets: Asset[] = [];
    for (const skin of new Set(this.skins())) {
      for (const file of await skinFiles(this.skinsDir, skin)) {
        const hashed = await this.hasher.hash(file.path);
        const url = skinUrl(this.skinsDir, file.path);
        if (hashed && url) assets.push({ url, hash: hashed.hash, size: hashed.size, kind: file.kind });
      }
    }
    return assets;
  }

  /** The assets whose hash and URL are both absent from what the client holds. */
  async missing(held: Iterable<string>): Promise<Asset[]> {
    const owned = new Set(held);
    return (await this.list()).filter((asset) => !owned.has(asset.hash) && !owned.has(asset.url));
  }
}
