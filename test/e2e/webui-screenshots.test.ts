import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, launchBrowser, startServer, waitForAvatar, type RunningBrowser, type RunningServer } from '../helpers/browser.ts';

const SCREENSHOTS = join(ARTIFACTS, 'screenshots');

const SCREENS = [
  { name: 'desktop', options: { viewport: { width: 1280, height: 800 } } },
  { name: 'phone', options: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
] as const;

/** Page-side globals, reached through globalThis (the project's type check has no DOM types). */
type PageScope = {
  document: {
    documentElement: { scrollWidth: number };
    getElementById(
      id: string,
    ): { hidden: boolean; textContent: string; scrollWidth: number; clientWidth: number; querySelector(selector: string): unknown } | null;
  };
};

/** Waits until a page has shown what it loads: the avatar's first frame, or an admin page past "Loading…". */
async function settle(page: Page, route: string): Promise<void> {
  if (route === '#/') return waitForAvatar(page);
  await page.waitForFunction(() => {
    const admin = (globalThis as unknown as PageScope).document.getElementById('admin');
    return admin !== null && !admin.hidden && admin.querySelector('h1') !== null && !admin.textContent.includes('Loading…');
  });
}

/** How wide the page is: the document, and the admin page's own box (content it would have to scroll). */
function widths(page: Page): Promise<{ document: number; admin: number }> {
  return page.evaluate(() => {
    const { document } = globalThis as unknown as PageScope;
    const admin = document.getElementById('admin');
    return { document: document.documentElement.scrollWidth, admin: admin && !admin.hidden ? admin.scrollWidth - admin.clientWidth : 0 };
  });
}

/** Every page of the navigation, at a desktop and a phone width, as full-page PNGs in the test artifacts. */
describe('web UI: every page at 1280 and 390 px', () => {
  let server: RunningServer;
  let browser: RunningBrowser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    await mkdir(SCREENSHOTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const screen of SCREENS) {
    it(`captures each page at ${screen.options.viewport.width} px, none wider than the screen`, async () => {
      const context = await browser.browser.newContext(screen.options);
      const page = await context.newPage();
      await page.goto(`${server.url}/#/`);
      // The navigation lists every route of the router, so a page added later is captured too.
      const routes = await page.locator('.site-nav a').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
      expect(routes).toEqual(expect.arrayContaining(['#/', '#/components', '#/config', '#/memory', '#/diary', '#/archives', '#/logs', '#/about']));
      const overflow: Record<string, { document: number; admin: number }> = {};
      for (const route of routes) {
        await page.goto(`${server.url}/${route}`);
        await settle(page, route);
        const name = route.replace(/^#\/?/, '') || 'chat';
        await page.screenshot({ path: join(SCREENSHOTS, `${name}-${screen.options.viewport.width}.png`), fullPage: true });
        const measured = await widths(page);
        if (measured.document > screen.options.viewport.width || measured.admin > 0) overflow[name] = measured;
      }
      expect(overflow).toEqual({});
      await context.close();
    }, 120_000);
  }
});
