/**
 * Skin assets (the VRM above all) kept in Cache Storage by content hash, so a warm page loads the model
 * without the network and the hello can tell the server what it already holds. Cache Storage exists only
 * in secure contexts (https, localhost, 127.0.0.1); elsewhere assets are plain fetches.
 */
const CACHE_NAME = 'anima-assets-v1';
const HASH_HEADER = 'x-anima-hash';
/**
 * Hashes this browser has put into Cache Storage. Opening Cache Storage the first time costs tens of
 * milliseconds, so a cold page goes straight to the network instead of asking an empty cache first.
 */
const KNOWN = 'anima.cached_hashes';

function knownHashes(): Set<string> {
  try {
    return new Set(JSON.parse(localStorage.getItem(KNOWN) ?? '[]') as string[]);
  } catch {
    return new Set();
  }
}

function remember(hash: string): void {
  const known = knownHashes();
  known.add(hash);
  localStorage.setItem(KNOWN, JSON.stringify([...known].slice(-20)));
}

function storage(): CacheStorage | undefined {
  return typeof caches === 'undefined' ? undefined : caches;
}

/** The asset's bytes: from the cache when its hash matches, else fetched (and cached under the hash). */
export async function cachedBytes(url: string, hash?: string): Promise<ArrayBuffer> {
  const caches = storage();
  if (caches && hash && knownHashes().has(hash)) {
    const hit = await (await caches.open(CACHE_NAME)).match(url);
    if (hit?.headers.get(HASH_HEADER) === hash) return hit.arrayBuffer();
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
  const bytes = await response.arrayBuffer();
  if (caches && hash) {
    const headers = new Headers({ 'content-type': response.headers.get('content-type') ?? 'application/octet-stream', [HASH_HEADER]: hash });
    // After the first frame's work: storing is not urgent.
    setTimeout(() => {
      caches
        .open(CACHE_NAME)
        .then((cache) => cache.put(url, new Response(bytes.slice(0), { headers })))
        .then(() => remember(hash))
        .catch(() => undefined);
    }, 0);
  }
  return bytes;
}

/** Hashes (and URLs) of every cached asset, for the hello's `has_assets`. */
export async function cachedAssets(): Promise<string[]> {
  const caches = storage();
  if (!caches || knownHashes().size === 0) return [];
  const cache = await caches.open(CACHE_NAME);
  const held: string[] = [];
  for (const request of await cache.keys()) {
    const response = await cache.match(request);
    const hash = response?.headers.get(HASH_HEADER);
    if (hash) held.push(hash, new URL(request.url).pathname);
  }
  return held;
}
