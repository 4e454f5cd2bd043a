import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ARTIFACTS,
  foregroundShare,
  launchBrowser,
  startServer,
  waitForAvatar,
  watchErrors,
  type RunningBrowser,
  type RunningServer,
} from '../helpers/browser.ts';

describe('web UI: the avatar', () => {
  let server: RunningServer;
  let browser: RunningBrowser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('loads with no console errors and renders the avatar in the canvas', async () => {
    const context = await browser.context();
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(server.url);
    await waitForAvatar(page);
    // Let the idle clip load and a few frames play.
    await page.waitForTimeout(1500);
    const centre = await foregroundShare(page, { x: 0.3, y: 0.1, width: 0.4, height: 0.8 }, join(ARTIFACTS, 'webui-avatar.png'));
    const corner = await foregroundShare(page, { x: 0.02, y: 0.02, width: 0.1, height: 0.1 });
    expect(errors).toEqual([]);
    expect(centre).toBeGreaterThan(0.05);
    expect(corner).toBeLessThan(0.01);
    // A phone: the canvas above the chat, the avatar still in view.
    await page.setViewportSize({ width: 390, height: 780 });
    await page.waitForTimeout(300);
    expect(await foregroundShare(page, { x: 0.2, y: 0.1, width: 0.6, height: 0.8 })).toBeGreaterThan(0.05);
    await page.screenshot({ path: join(ARTIFACTS, 'webui-phone.png') });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('serves the page without trust checks, with hashed assets cached for good', async () => {
    const remote = '203.0.113.9';
    const page = await server.app.inject({ method: 'GET', url: '/', remoteAddress: remote });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect((await server.app.inject({ method: 'HEAD', url: '/', remoteAddress: remote })).statusCode).toBe(200);
    const script = /src="(\/assets\/app-[^"]+\.js)"/.exec(page.body)?.[1] ?? '';
    const asset = await server.app.inject({ method: 'GET', url: script, remoteAddress: remote });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await server.app.inject({ method: 'GET', url: '/api/about', remoteAddress: remote })).statusCode).toBe(401);
  });
});
