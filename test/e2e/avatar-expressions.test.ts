import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPRESSIONS } from '../../scripts/skin/avatar-face.ts';
import { CLIPS } from '../../scripts/skin/clips/index.ts';
import { animationPath } from '../../scripts/skin/skin-files.ts';
import { ARTIFACTS, launchBrowser, watchErrors, type RunningBrowser } from '../helpers/browser.ts';

const SCREENSHOTS = join(ARTIFACTS, 'screenshots');
const SKIN = resolve('skins/default');
const ORIGIN = 'http://avatar.test';
/** The chat page's canvas on a desktop window. */
const VIEWPORT = { width: 900, height: 640 };

/**
 * The page: the web UI's own stage, loader and retarget (so lighting, framing and materials are what users
 * see), the avatar standing in the first frame of its idle clip, and one expression set at a time. Eye
 * movement is left to the test, so `look*` weights are not overwritten by the gaze.
 */
const HARNESS = `
import { AnimationMixer, Vector3 } from 'three';
import { FBXLoader } from 'three/examples/jsm/loaders/FBXLoader.js';
import { Stage } from './src/webui/avatar/stage.ts';
import { loadVrm } from './src/webui/avatar/vrm-loader.ts';
import { retargetMixamo } from './src/webui/avatar/retarget.ts';

const canvas = document.createElement('canvas');
canvas.id = 'avatar';
canvas.style.cssText = 'width:100vw;height:100vh;display:block';
document.body.append(canvas);
const stage = new Stage(canvas);
let expression = { name: '', weight: 0 };
let frames = 0;
let seconds = 0;
window.__harness = (async () => {
  const vrm = await loadVrm('/anima.vrm');
  const mixer = new AnimationMixer(vrm.scene);
  const play = async (file) => {
    const asset = new FBXLoader().parse(await (await fetch('/animations/' + file)).arrayBuffer(), '');
    mixer.stopAllAction();
    mixer.clipAction(retargetMixamo(asset, vrm)).play();
  };
  await play('idle/Idle.fbx');
  vrm.lookAt.autoUpdate = false;
  stage.setVrm(vrm);
  stage.onFrame(() => {
    mixer.setTime(seconds);
    vrm.expressionManager.resetValues();
    if (expression.name) vrm.expressionManager.setValue(expression.name, expression.weight);
    vrm.update(0);
    frames += 1;
  });
  stage.start();
  await stage.firstAvatarFrame;
  // Draws two frames of what was asked, then stops drawing: the canvas keeps showing the last one, and a
  // software-rendered frame loop no longer takes a core from the screenshots (and from every other test).
  const rendered = async () => {
    stage.visible = true;
    const start = frames;
    while (frames < start + 2) await new Promise((r) => requestAnimationFrame(r));
    stage.visible = false;
  };
  return {
    async show(name, weight) {
      expression = { name, weight };
      await rendered();
    },
    async pose(file, at) {
      await play(file);
      seconds = at;
      await rendered();
    },
    /** The face as a box in canvas fractions: the head from chin to crown, projected by the stage camera. */
    faceBox() {
      const head = vrm.humanoid.getNormalizedBoneNode('head').getWorldPosition(new Vector3());
      const project = (dx, dy) => new Vector3(head.x + dx, head.y + dy, head.z + 0.1).project(stage.camera);
      const [a, b] = [project(-0.11, -0.03), project(0.11, 0.26)];
      return { x: (a.x + 1) / 2, y: (1 - b.y) / 2, width: (b.x - a.x) / 2, height: (b.y - a.y) / 2 };
    },
  };
})();
`;

/** Share of pixels in `box` (canvas fractions) whose colour differs between two PNGs; decoded in the page. */
const DIFFERING_SHARE = `async ({ a, b, box }) => {
  const decode = async (png) => {
    const bitmap = await createImageBitmap(await (await fetch('data:image/png;base64,' + png)).blob());
    const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d');
    context.drawImage(bitmap, 0, 0);
    const x = Math.floor(box.x * bitmap.width);
    const y = Math.floor(box.y * bitmap.height);
    return context.getImageData(x, y, Math.ceil(box.width * bitmap.width), Math.ceil(box.height * bitmap.height)).data;
  };
  const [pa, pb] = await Promise.all([decode(a), decode(b)]);
  let differing = 0;
  for (let i = 0; i < pa.length; i += 4) {
    if (Math.abs(pa[i] - pb[i]) + Math.abs(pa[i + 1] - pb[i + 1]) + Math.abs(pa[i + 2] - pb[i + 2]) > 60) differing += 1;
  }
  return differing / (pa.length / 4);
}`;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

async function bundleHarness(): Promise<string> {
  const result = await build({
    stdin: { contents: HARNESS, resolveDir: resolve('.'), sourcefile: 'avatar-expressions-harness.ts', loader: 'ts' },
    bundle: true,
    format: 'esm',
    target: 'es2022',
    write: false,
    tsconfig: resolve('src/webui/tsconfig.json'),
    logLevel: 'silent',
  });
  return result.outputFiles[0]?.text ?? '';
}

/** Serves the harness and the committed skin files under a made-up origin, without a server. */
async function openHarness(page: Page): Promise<void> {
  const files: Record<string, { body: string | Buffer; type: string }> = {
    '/': {
      body: '<!doctype html><html><body style="margin:0;background:#1b2030"><script type="module" src="/harness.js"></script></body></html>',
      type: 'text/html',
    },
    '/harness.js': { body: await bundleHarness(), type: 'text/javascript' },
    '/anima.vrm': { body: await readFile(join(SKIN, 'anima.vrm')), type: 'model/gltf-binary' },
  };
  await page.route(`${ORIGIN}/**`, async (route) => {
    const path = decodeURIComponent(new URL(route.request().url()).pathname);
    const file = files[path];
    if (file) return route.fulfill({ body: file.body, contentType: file.type });
    const clip = CLIPS.find((c) => `/${animationPath(c)}` === path);
    return clip ? route.fulfill({ body: await readFile(join(SKIN, animationPath(clip))) }) : route.fulfill({ status: 404 });
  });
  await page.goto(`${ORIGIN}/`);
  await page.waitForFunction(() => (globalThis as unknown as { __harness?: unknown }).__harness !== undefined);
  await page.evaluate(() => (globalThis as unknown as { __harness: Promise<unknown> }).__harness);
}

async function show(page: Page, name: string, weight: number): Promise<Buffer> {
  await page.evaluate(
    async ([name, weight]) => {
      const harness = await (globalThis as unknown as { __harness: Promise<{ show(n: string, w: number): Promise<void> }> }).__harness;
      await harness.show(name as string, weight as number);
    },
    [name, weight] as const,
  );
  return page.locator('#avatar').screenshot();
}

describe('the default avatar: every expression at chat-window size', () => {
  let browser: RunningBrowser;
  let page: Page;
  let errors: string[];
  let neutral: Buffer;
  let face: Box;

  beforeAll(async () => {
    browser = await launchBrowser();
    await mkdir(SCREENSHOTS, { recursive: true });
    page = await (await browser.browser.newContext({ viewport: VIEWPORT })).newPage();
    errors = watchErrors(page);
    await openHarness(page);
    neutral = await show(page, '', 0);
    await writeFile(join(SCREENSHOTS, 'expression-neutral.png'), neutral);
    face = await page.evaluate(async () => (await (globalThis as unknown as { __harness: Promise<{ faceBox(): Box }> }).__harness).faceBox());
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('frames the face inside the canvas', () => {
    expect(errors).toEqual([]);
    expect(face.x).toBeGreaterThan(0);
    expect(face.y).toBeGreaterThan(0);
    expect(face.x + face.width).toBeLessThan(1);
    expect(face.height).toBeGreaterThan(0.1);
  });

  it.each(EXPRESSIONS)('shows %s at 1.0 visibly different from the neutral face', async (name) => {
    const shot = await show(page, name, 1);
    await writeFile(join(SCREENSHOTS, `expression-${name}.png`), shot);
    const share = (await page.evaluate(
      `(${DIFFERING_SHARE})(${JSON.stringify({ a: neutral.toString('base64'), b: shot.toString('base64'), box: face })})`,
    )) as number;
    // About 65 pixels of a 110 px wide face change strongly; a gaze shift, the smallest change, moves both irises.
    expect(share, name).toBeGreaterThan(0.004);
    expect(errors).toEqual([]);
  });

  it('captures every clip in the middle of its loop (pose-<state>-<name>.png)', async () => {
    await show(page, '', 0);
    for (const clip of CLIPS) {
      const loop = clip.descriptor.loop ?? { start_frame: 0, end_frame: clip.lastFrame };
      const at = (loop.start_frame + loop.end_frame) / 2 / clip.descriptor.fps;
      await page.evaluate(
        async ([file, at]) => {
          const harness = await (globalThis as unknown as { __harness: Promise<{ pose(f: string, s: number): Promise<void> }> }).__harness;
          await harness.pose(file as string, at as number);
        },
        [animationPath(clip).slice('animations/'.length), at] as const,
      );
      await page.locator('#avatar').screenshot({ path: join(SCREENSHOTS, `pose-${clip.state}-${clip.name.replaceAll(' ', '-')}.png`) });
    }
    expect(errors).toEqual([]);
  }, 120_000);
});
