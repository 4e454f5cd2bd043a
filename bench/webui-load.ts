/**
 * Web UI load: time from navigation to the first rendered avatar frame in Chromium, cold (fresh browser,
 * empty caches) and warm (the same page loaded again), against a floor page served by the same process
 * that only loads the same VRM with three-vrm and renders one frame. Targets: cold <= 1.3x the floor,
 * warm <= 0.5x cold.
 */
import { resolve } from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import { buildApp } from '../src/app.ts';
import { createLogger } from '../src/logging.ts';
import { ensureWebuiBuilt } from '../src/system/webui-build.ts';
import { CHROMIUM_ARGS } from '../test/helpers/browser.ts';
import { createTestServices } from '../test/helpers/services.ts';
import { percentile, type Benchmark } from './lib/report.ts';

const ROUNDS = 7;
const VIEWPORT = { width: 900, height: 640 };

/** The floor: the least a page can do to show this VRM (same bundler settings as the web UI). */
const FLOOR_SOURCE = `
import { VRMLoaderPlugin } from '@pixiv/three-vrm';
import { DirectionalLight, PerspectiveCamera, Scene, WebGLRenderer } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
const canvas = document.querySelector('canvas');
const renderer = new WebGLRenderer({ canvas, antialias: true });
renderer.setSize(canvas.clientWidth, canvas.clientHeight, false);
const scene = new Scene();
const light = new DirectionalLight(0xffffff, Math.PI);
light.position.set(1, 1.5, 2);
scene.add(light);
const camera = new PerspectiveCamera(30, canvas.clientWidth / canvas.clientHeight, 0.05, 50);
camera.position.set(0, 1.2, 3);
const loader = new GLTFLoader();
loader.register((parser) => new VRMLoaderPlugin(parser));
const gltf = await loader.loadAsync('/skins/default/anima.vrm');
scene.add(gltf.userData.vrm.scene);
renderer.render(scene, camera);
window.__anima_first_avatar_frame = performance.now();
`;

const FLOOR_HTML = `<!doctype html><html><head><meta charset="utf-8"><title>floor</title>
<style>html,body{margin:0;height:100%}canvas{width:100%;height:100%;display:block}</style>
<script type="module" src="/bench-floor/floor.js"></script></head><body><canvas></canvas></body></html>`;

async function floorBundle(): Promise<string> {
  const result = await build({
    stdin: { contents: FLOOR_SOURCE, resolveDir: resolve('.'), loader: 'js' },
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    write: false,
  });
  return result.outputFiles[0]?.text ?? '';
}

/** ms from navigation start to the first avatar frame, in a fresh or the given page. */
async function firstFrame(page: import('playwright-core').Page, url: string): Promise<number> {
  await page.goto(url);
  const handle = await page.waitForFunction(() => (globalThis as unknown as Record<string, number | undefined>).__anima_first_avatar_frame, undefined, {
    timeout: 30_000,
  });
  return (await handle.jsonValue()) as number;
}

async function withBrowser<T>(run: (browser: Browser) => Promise<T>): Promise<T> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    return await run(browser);
  } finally {
    await browser.close();
  }
}

const webuiLoad: Benchmark = async (report) => {
  await ensureWebuiBuilt(createLogger({ level: 'silent', pretty: false }).logger);
  const harness = await createTestServices({ environment: { SKINS_DIR: resolve('skins') } });
  const app = await buildApp(harness.services);
  const script = await floorBundle();
  app.get('/bench-floor/', async (_request, reply) => reply.type('text/html; charset=utf-8').send(FLOOR_HTML));
  app.get('/bench-floor/floor.js', async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(script));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const floor: number[] = [];
  const cold: number[] = [];
  const warm: number[] = [];
  try {
    for (let round = 0; round < ROUNDS; round += 1) {
      report.progress(`round ${round + 1}/${ROUNDS}`);
      // A fresh browser per cold figure: nothing compiled or cached survives from the other page.
      floor.push(await withBrowser(async (browser) => firstFrame(await (await browser.newContext({ viewport: VIEWPORT })).newPage(), `${base}/bench-floor/`)));
      await withBrowser(async (browser) => {
        const page = await (await browser.newContext({ viewport: VIEWPORT })).newPage();
        cold.push(await firstFrame(page, `${base}/`));
        // Let the first visit finish caching (Cache Storage write, idle clip) before the warm visit.
        await page.waitForTimeout(500);
        warm.push(await firstFrame(page, `${base}/`));
      });
    }
  } finally {
    await app.close();
    await harness.close();
  }
  const [floorMs, coldMs, warmMs] = [percentile(floor, 50), percentile(cold, 50), percentile(warm, 50)];
  report.figure('floor_p50', floorMs, 'ms');
  report.figure('cold_p50', coldMs, 'ms');
  report.figure('warm_p50', warmMs, 'ms');
  report.figure('warm_over_cold', warmMs / coldMs, 'x (target <= 0.5)');
  report.figure('cold_over_floor', coldMs / floorMs, 'x (target <= 1.3)');
};

export default webuiLoad;
