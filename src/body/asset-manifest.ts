import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { animationUrl, byName, isAnimationFile, readEntries, skinUrl } from './skin-files.ts';

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
    let info: Awaited<ReturnType<typeof stat>>;
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

interface ListedFile {
  path: string;
  kind: AssetKind;
  url: string | undefined;
}

/** The animations and descriptors of `<root>/animations/<state>/`, with the URLs clients fetch them from. */
async function animationFiles(skinsDir: string, root: string): Promise<ListedFile[]> {
  const files: ListedFile[] = [];
  const states = (await readEntries(join(root, 'animations'))).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  for (const state of states.sort(byName)) {
    const folder = join(root, 'animations', state);
    for (const entry of (await readEntries(folder)).sort((a, b) => byName(a.name, b.name))) {
      if (!entry.isFile()) continue;
      const path = join(folder, entry.name);
      if (isAnimationFile(entry.name)) files.push({ path, kind: 'animation', url: animationUrl(skinsDir, state, entry.name, path) });
      else if (entry.name.endsWith('.json') && isAnimationFile(entry.name.slice(0, -5))) files.push({ path, kind: 'descriptor', url: skinUrl(skinsDir, path) });
    }
  }
  return files;
}

/** The files of one skin a client may cache: models, persona, animations and descriptors. */
async function skinFiles(skinsDir: string, skin: string): Promise<ListedFile[]> {
  const root = join(skinsDir, skin);
  const files: ListedFile[] = [];
  for (const entry of (await readEntries(root)).sort((a, b) => byName(a.name, b.name))) {
    if (!entry.isFile()) continue;
    const path = join(root, entry.name);
    if (entry.name.endsWith('.vrm')) files.push({ path, kind: 'vrm', url: skinUrl(skinsDir, path) });
    if (entry.name === 'persona.json') files.push({ path, kind: 'persona', url: skinUrl(skinsDir, path) });
  }
  return [...files, ...(await animationFiles(skinsDir, root))];
}

/** Files outside the skin folders that clients also load (a custom model), listed by their owner. */
export type AssetSource = () => Array<{ path: string; url: string; kind: AssetKind }>;

/**
 * The content-hash manifest for client caches: the active and fallback skins, the temporary search
 * paths (uploads) and whatever the registered sources add. Hashes are recomputed only for changed files.
 */
export class AssetManifest {
  private readonly sources = new Set<AssetSource>();

  constructor(
    private readonly skinsDir: string,
    private readonly skins: () => string[],
    private readonly temporaryRoots: () => string[],
    private readonly hasher = new FileHasher(),
  ) {}

  hashFile(path: string) {
    return this.hasher.hash(path);
  }

  addSource(source: AssetSource): () => void {
    this.sources.add(source);
    return () => this.sources.delete(source);
  }

  async list(): Promise<Asset[]> {
    const files: ListedFile[] = [];
    for (const root of this.temporaryRoots()) files.push(...(await animationFiles(this.skinsDir, root)));
    for (const skin of new Set(this.skins())) files.push(...(await skinFiles(this.skinsDir, skin)));
    for (const source of this.sources) files.push(...source());
    const assets: Asset[] = [];
    const seen = new Set<string>();
    for (const file of files) {
      if (file.url === undefined || seen.has(file.url)) continue;
      const hashed = await this.hasher.hash(file.path);
      if (!hashed) continue;
      seen.add(file.url);
      assets.push({ url: file.url, hash: hashed.hash, size: hashed.size, kind: file.kind });
    }
    return assets;
  }

  /** The assets whose hash and URL are both absent from what the client holds. */
  async missing(held: Iterable<string>): Promise<Asset[]> {
    const owned = new Set(held);
    return (await this.list()).filter((asset) => !owned.has(asset.hash) && !owned.has(asset.url));
  }
}
