/**
 * Builds the browser client (src/webui) into dist/webui: at start when the bundle is missing or stale,
 * and from `npm run build:webui`. It runs in Node, so it lives here and not in src/webui, whose tsconfig
 * is the browser's.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Logger } from '../logging.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const WEBUI_SOURCE = join(ROOT, 'src', 'webui');
export const WEBUI_OUTPUT = join(ROOT, 'dist', 'webui');
const STAMP = '.build-stamp';

/** Everything that shapes the bundle: the client sources, this file, and the installed three/three-vrm versions. */
async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

export async function sourceHash(): Promise<string> {
  const hash = createHash('sha256');
  const inputs = [
    ...(await sourceFiles(WEBUI_SOURCE)),
    fileURLToPath(import.meta.url),
    join(ROOT, 'node_modules', 'three', 'package.json'),
    join(ROOT, 'node_modules', '@pixiv', 'three-vrm', 'package.json'),
  ];
  for (const file of inputs) {
    hash.update(relative(ROOT, file)).update('\0');
    hash.update(await readFile(file)).update('\0');
  }
  return hash.digest('hex');
}

export async function isWebuiFresh(): Promise<boolean> {
  try {
    return (await readFile(join(WEBUI_OUTPUT, STAMP), 'utf8')) === (await sourceHash());
  } catch {
    return false;
  }
}

/**
 * Bundles the client into a fresh folder, then swaps it in, so a server serving the old bundle never sees
 * a half-written one. Asset names carry a content hash (cached forever); index.html names the current ones.
 */
export async function buildWebui(): Promise<{ outDir: string; ms: number }> {
  const started = performance.now();
  const hash = await sourceHash();
  const staging = `${WEBUI_OUTPUT}.${process.pid}.${Date.now()}`;
  const result = await build({
    // The microphone's AudioWorklet is a module of its own: the audio thread loads it by URL.
    entryPoints: {
      app: join(WEBUI_SOURCE, 'main.ts'),
      style: join(WEBUI_SOURCE, 'styles.css'),
      'pcm-worklet': join(WEBUI_SOURCE, 'voice', 'pcm-worklet.ts'),
    },
    outdir: join(staging, 'assets'),
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    sourcemap: 'linked',
    metafile: true,
    tsconfig: join(WEBUI_SOURCE, 'tsconfig.json'),
    logLevel: 'silent',
  });
  const outputs = Object.entries(result.metafile.outputs);
  const entry = (name: string) => {
    const found = outputs.find(([, meta]) => meta.entryPoint !== undefined && basename(meta.entryPoint).startsWith(name));
    if (!found) throw new Error(`the web UI build produced no ${name} output`);
    return found;
  };
  const [script, scriptMeta] = entry('main.ts');
  // The entry's static imports (three, three-vrm) are announced up front, so they download in parallel.
  const preloads = scriptMeta.imports
    .filter((item) => item.kind === 'import-statement')
    .map((item) => `<link rel="modulepreload" href="/assets/${basename(item.path)}" />`)
    .join('\n    ');
  const template = await readFile(join(WEBUI_SOURCE, 'index.html'), 'utf8');
  const html = template
    .replaceAll('%APP_SCRIPT%', `/assets/${basename(script)}`)
    .replace('%APP_STYLE%', `/assets/${basename(entry('styles.css')[0])}`)
    .replace('%APP_PRELOADS%', preloads)
    .replace('%PCM_WORKLET%', `/assets/${basename(entry('pcm-worklet.ts')[0])}`);
  await writeFile(join(staging, 'index.html'), html);
  await writeFile(join(staging, STAMP), hash);
  await mkdir(join(WEBUI_OUTPUT, '..'), { recursive: true });
  await rm(WEBUI_OUTPUT, { recursive: true, force: true });
  try {
    await rename(staging, WEBUI_OUTPUT);
  } catch (error) {
    // Another process (a parallel start) swapped in the same build first.
    await rm(staging, { recursive: true, force: true });
    if (!(await isWebuiFresh())) throw error;
  }
  return { outDir: WEBUI_OUTPUT, ms: Math.round(performance.now() - started) };
}

/** For `npm start`: builds the web UI when the bundle is missing or older than its sources. */
export async function ensureWebuiBuilt(logger: Logger): Promise<void> {
  if (await isWebuiFresh()) return;
  logger.info({ outDir: WEBUI_OUTPUT }, 'building the web UI (bundle missing or stale)');
  const { ms } = await buildWebui();
  logger.info({ ms }, `web UI built in ${ms} ms`);
}
