/**
 * Browser-test plumbing: Debian's Chromium through playwright-core (headless WebGL on SwiftShader, the
 * flags of platform-notes.md), and a real Anima web app on a free port serving the default skin.
 */
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Page } from 'playwright-core';
import { buildApp, type App } from '../../src/app.ts';
import { createLogger } from '../../src/logging.ts';
import { ensureWebuiBuilt } from '../../src/system/webui-build.ts';
import { shippedRoots } from './component-roots.ts';
import { startFakeOpenAi, type FakeOpenAi } from './openai-server.ts';
import { createTestServices, type TestServiceOptions, type TestServices } from './services.ts';

export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--use-gl=swiftshader',
  '--enable-unsafe-swiftshader',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--autoplay-policy=no-user-gesture-required',
];

export const ARTIFACTS = resolve('test-artifacts');
const SKINS = resolve('skins');

export interface RunningServer {
  app: App;
  test: TestServices;
  url: string;
  close(): Promise<void>;
}

/** What a web app needs to show the committed avatar; suites on `useTestApp` pass it with `buildWebui()` before all. */
export const BROWSER_ENVIRONMENT = { SKINS_DIR: SKINS };

/** Builds the web UI bundle when its sources changed. */
export async function buildWebui(): Promise<void> {
  await ensureWebuiBuilt(createLogger({ level: 'silent', pretty: false }).logger);
}

export async function startServer(options: TestServiceOptions = {}): Promise<RunningServer> {
  await buildWebui();
  const test = await createTestServices({ ...options, environment: { ...BROWSER_ENVIRONMENT, ...options.environment } });
  const app = await buildApp(test.services);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    app,
    test,
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await app.close();
      await test.close();
    },
  };
}

export interface RunningBrowser {
  browser: Browser;
  /** A fresh context (own cache and storage) per call; closed with the browser. */
  context(): Promise<BrowserContext>;
  close(): Promise<void>;
}

export interface LaunchOptions {
  /** `blocked`: sound only after a user gesture, as browsers do by default (the suite allows it). */
  autoplay?: 'allowed' | 'blocked';
  /** A WAV file the fake microphone plays once (then silence); getUserMedia is granted without asking. */
  audioCapture?: string;
}

export async function launchBrowser(options: LaunchOptions = {}): Promise<RunningBrowser> {
  const args =
    options.autoplay === 'blocked'
      ? [...CHROMIUM_ARGS.filter((arg) => !arg.startsWith('--autoplay-policy=')), '--autoplay-policy=document-user-activation-required']
      : [...CHROMIUM_ARGS];
  if (options.audioCapture)
    args.push('--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${options.audioCapture}%noloop`);
  // playwright gives every launch a fresh temporary profile (the fresh user-data dir the notes ask for).
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args });
  await mkdir(ARTIFACTS, { recursive: true });
  return {
    browser,
    context: () => browser.newContext({ viewport: { width: 900, height: 640 } }),
    close: () => browser.close(),
  };
}

/** A local model server, the web app answering through the shipped `openai` engine with it, and a browser. */
export interface ModelStack {
  fake: FakeOpenAi;
  server: RunningServer;
  browser: RunningBrowser;
  close(): Promise<void>;
}

export async function startModelStack(options: { environment?: Record<string, string>; launch?: LaunchOptions } = {}): Promise<ModelStack> {
  const fake = await startFakeOpenAi({ apiKey: 'sk-test' });
  const [server, browser] = await Promise.all([
    startServer({
      componentRoots: shippedRoots,
      environment: {
        CORTEX_ENGINE: 'openai',
        OPENAI_BASE_URL: fake.baseUrl,
        OPENAI_API_KEY: 'sk-test',
        OPENAI_MODEL: 'gpt-test',
        ...options.environment,
      },
    }),
    launchBrowser(options.launch),
  ]);
  return {
    fake,
    server,
    browser,
    close: async () => {
      await browser.close();
      await server.close();
      await fake.close();
    },
  };
}

/** Console errors and uncaught page errors, collected from the moment the page is created. */
/** A phone-sized touch screen: every page must work there. */
export const PHONE = { viewport: { width: 390, height: 780 }, isMobile: true, hasTouch: true } as const;

export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/**
 * Page-side code sees the page's globals; this project's type check has Node types, not the DOM's, so
 * they are reached through `globalThis` (waitForFunction must get a function: a string would be eval'd
 * in the page, which the page's CSP forbids).
 */
export function pageGlobal<T>(name: string): T {
  return (globalThis as unknown as Record<string, T>)[name] as T;
}

export async function waitForAvatar(page: Page, timeoutMs = 20_000): Promise<void> {
  await page.waitForFunction(() => (globalThis as unknown as Record<string, unknown>).__anima_first_avatar_frame !== undefined, undefined, {
    timeout: timeoutMs,
  });
}

/** Pixels of the scene background, #1b2030, within a small tolerance. */
const COUNT_FOREGROUND = `async ({ png, box }) => {
  const blob = await (await fetch('data:image/png;base64,' + png)).blob();
  const bitmap = await createImageBitmap(blob);
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const context = canvas.getContext('2d');
  context.drawImage(bitmap, 0, 0);
  const x = Math.floor(box.x * bitmap.width);
  const y = Math.floor(box.y * bitmap.height);
  const data = context.getImageData(x, y, Math.max(1, Math.floor(box.width * bitmap.width)), Math.max(1, Math.floor(box.height * bitmap.height))).data;
  let differing = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (Math.abs(data[i] - 0x1b) + Math.abs(data[i + 1] - 0x20) + Math.abs(data[i + 2] - 0x30) > 24) differing += 1;
  }
  return differing / (data.length / 4);
}`;

/**
 * Share of canvas pixels that differ from the scene background, from a real screenshot (decoded in the
 * page, so the test needs no PNG library); optionally within a box given as fractions of the canvas.
 */
export async function foregroundShare(page: Page, box = { x: 0, y: 0, width: 1, height: 1 }, screenshotPath?: string): Promise<number> {
  const png = (await page.locator('#avatar').screenshot(screenshotPath ? { path: screenshotPath } : {})).toString('base64');
  return page.evaluate(`(${COUNT_FOREGROUND})(${JSON.stringify({ png, box })})`) as Promise<number>;
}

/** Starts recording window events of these types into `globalThis.__recorded` (read with `recorded`). */
export async function recordEvents(page: Page, types: string[]): Promise<void> {
  await page.evaluate((types) => {
    const scope = globalThis as unknown as {
      __recorded: Array<{ type: string; detail: unknown; at: number }>;
      addEventListener: (type: string, listener: (event: { detail: unknown }) => void) => void;
    };
    scope.__recorded = [];
    for (const type of types) scope.addEventListener(type, (event) => scope.__recorded.push({ type, detail: event.detail, at: Date.now() }));
  }, types);
}

export function recorded<T = unknown>(page: Page): Promise<Array<{ type: string; detail: T; at: number }>> {
  return page.evaluate(() => (globalThis as unknown as { __recorded: Array<{ type: string; detail: T; at: number }> }).__recorded);
}

/** Waits until the recorded events satisfy `predicate` (polling from Node: the page's CSP forbids eval). */
export async function waitForRecorded<T = unknown>(
  page: Page,
  predicate: (events: Array<{ type: string; detail: T; at: number }>) => boolean,
  timeoutMs = 10_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const events = await recorded<T>(page);
    if (predicate(events)) return events;
    if (Date.now() > deadline) throw new Error(`events never matched; got ${JSON.stringify(events)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Records every start of a media element (its src, in order, and the element), whoever starts it. */
export async function recordMediaPlays(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const scope = globalThis as unknown as {
      __plays: string[];
      __media: unknown[];
      HTMLMediaElement: { prototype: { play: () => Promise<void>; src: string } };
    };
    scope.__plays = [];
    scope.__media = [];
    const original = scope.HTMLMediaElement.prototype.play;
    scope.HTMLMediaElement.prototype.play = function play(this: { src: string }) {
      scope.__plays.push(this.src);
      if (!scope.__media.includes(this)) scope.__media.push(this);
      return original.call(this);
    };
  });
}

/** The sources `play()` was called on so far (recordMediaPlays). */
export function mediaPlays(page: Page): Promise<string[]> {
  return page.evaluate(() => (globalThis as unknown as { __plays: string[] }).__plays);
}

/** Whether every media element that was ever played is paused now (recordMediaPlays). */
export function allMediaPaused(page: Page): Promise<boolean> {
  return page.evaluate(() => (globalThis as unknown as { __media: Array<{ paused: boolean }> }).__media.every((media) => media.paused));
}
