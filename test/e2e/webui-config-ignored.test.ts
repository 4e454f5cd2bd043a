import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/dialect.ts';
import { ConfigEntriesRepository } from '../../src/db/repositories/config-entries.ts';
import { ARTIFACTS, launchBrowser, PHONE, startServer, watchErrors, type RunningBrowser, type RunningServer } from '../helpers/browser.ts';

describe('web UI: a saved setting that is not in use', () => {
  let folder: string;
  let server: RunningServer;
  let browser: RunningBrowser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    // Saved by an older version, before timers were bounded: today's schema refuses it.
    folder = await mkdtemp(join(tmpdir(), 'anima-ignored-'));
    const databaseUrl = `sqlite:${join(folder, 'anima.sqlite')}`;
    const database = await openDatabase(databaseUrl, folder);
    await new ConfigEntriesRepository(database.db, database.dialect).save('CORTEX_TIMEOUT_S', '3000000');
    await database.close();
    [server, browser] = await Promise.all([startServer({ databaseUrl }), launchBrowser()]);
    const context = await browser.browser.newContext(PHONE);
    page = await context.newPage();
    errors = watchErrors(page);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('is listed at the top of the Configuration page and beside its field, and Reset removes it', async () => {
    expect(server.test.services.config.get('CORTEX_TIMEOUT_S')).toBe(120);
    await page.goto(`${server.url}/#/config`);
    const summary = page.locator('[data-ignored]');
    await summary.waitFor();
    expect(await summary.getAttribute('data-ignored')).toBe('CORTEX_TIMEOUT_S');
    expect(await summary.textContent()).toContain('CORTEX_TIMEOUT_S');
    const field = page.locator('.field[data-key="CORTEX_TIMEOUT_S"]');
    expect(await field.locator('.warning').textContent()).toMatch(/^The saved value 3000000 is not in use: no longer valid: at most 2147483 seconds/);
    // Its section opens by itself, so the warning beside the field is in sight.
    expect(await field.isVisible()).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'webui-config-ignored-phone.png') });

    await field.getByRole('button', { name: 'Reset' }).click();
    const changes = page.locator('details[data-group="cortex"] .config-changes');
    expect(await changes.locator('li').allTextContents()).toEqual(['CORTEX_TIMEOUT_S: 120 → default (120)']);
    await changes.getByRole('button', { name: 'Save 1 change' }).click();
    await summary.waitFor({ state: 'detached' });
    expect(await field.locator('.warning').count()).toBe(0);
    expect(server.test.services.config.ignoredEntry('CORTEX_TIMEOUT_S')).toBeUndefined();
    expect(errors).toEqual([]);
  });
});
