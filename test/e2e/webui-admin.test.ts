import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enableDevComponents } from '../../src/components/dev-flag.ts';
import { fixtureRoots } from '../helpers/component-roots.ts';
import { ARTIFACTS, launchBrowser, PHONE, startServer, watchErrors, type RunningBrowser, type RunningServer } from '../helpers/browser.ts';

describe('web UI: admin pages', () => {
  let server: RunningServer;
  let browser: RunningBrowser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    // Development components load only when the flag is on at start; the fixtures include one.
    enableDevComponents(true);
    [server, browser] = await Promise.all([startServer({ componentRoots: fixtureRoots }), launchBrowser()]);
    enableDevComponents(false);
    // A phone-sized screen: the admin pages must work there.
    const context = await browser.browser.newContext(PHONE);
    page = await context.newPage();
    errors = watchErrors(page);
  });

  afterAll(async () => {
    enableDevComponents(false);
    await browser?.close();
    await server?.close();
  });

  it('shows a FAILED component with its reason, and the in-development badge', async () => {
    await page.goto(`${server.url}/#/components`);
    const failed = page.locator('.component[data-name="gated-or"]');
    await failed.waitFor();
    expect(await failed.getAttribute('data-status')).toBe('FAILED');
    expect(await failed.locator('.reason').textContent()).toBe('Missing required configuration: MATRIX_USER_ID, MATRIX_PASSWORD or MATRIX_ACCESS_TOKEN');
    const dot = await failed
      .locator('.status-dot')
      .evaluate(
        (element) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(element).backgroundColor,
      );
    expect(dot).toBe('rgb(239, 93, 93)');
    expect(await page.locator('.badge.dev').count()).toBeGreaterThan(0);
    expect(await page.locator('.warning', { hasText: 'not saved' }).count()).toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, 'webui-components-phone.png'), fullPage: true });
    expect(errors).toEqual([]);
  });
});
