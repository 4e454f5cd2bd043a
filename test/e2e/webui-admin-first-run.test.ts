import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, PHONE, startServer, watchErrors, type RunningBrowser, type RunningServer } from '../helpers/browser.ts';

/** Logs, About and Diary as a new user meets them: WEB_DEBUG off, an empty diary. */
describe('web UI: admin pages on a fresh install', () => {
  let server: RunningServer;
  let browser: RunningBrowser;
  let page: Page;
  let errors: string[];
  /** Paths the page asked for, over HTTP or as a WebSocket. */
  const asked: string[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    page = await (await browser.browser.newContext(PHONE)).newPage();
    errors = watchErrors(page);
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    page.on('websocket', (socket) => asked.push(new URL(socket.url()).pathname));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('asks whether the live log is on, and with WEB_DEBUG off opens no /logs but says how to turn it on', async () => {
    await page.goto(`${server.url}/#/logs`);
    const hint = page.getByRole('status').filter({ hasText: 'The live log is off.' });
    await hint.waitFor();
    expect(await hint.textContent()).toContain('turn WEB_DEBUG on in Configuration (or set WEB_DEBUG=1 in .env) and restart Anima');
    expect(await hint.getByRole('link', { name: 'Configuration' }).getAttribute('href')).toBe('#/config');
    expect(asked).toContain('/api/logs/info');
    expect(asked).not.toContain('/logs');
    expect(await page.locator('.log-lines').isVisible()).toBe(false);
    // Saved now, the variable applies from the next start: the page says so and still opens nothing.
    await server.test.services.config.set('WEB_DEBUG', '1');
    await page.reload();
    await page.getByRole('status').filter({ hasText: 'WEB_DEBUG is on but applies from the next start' }).waitFor();
    expect(asked).not.toContain('/logs');
    expect(errors).toEqual([]);
  });

  it('shows the About figures in words and units, not raw keys', async () => {
    await page.goto(`${server.url}/#/about`);
    const memory = page.locator('tr', { has: page.locator('th', { hasText: /^Total memory$/ }) });
    await memory.waitFor();
    expect(await memory.locator('td').textContent()).toMatch(/^\d+(\.\d+)? GiB$/);
    const uptime = page.locator('tr', { has: page.locator('th', { hasText: /^Uptime$/ }) }).locator('td');
    expect(await uptime.textContent()).toMatch(/^\d+ (s|min)$/);
    const text = (await page.locator('#admin').textContent()) ?? '';
    expect(text).toContain('GiB');
    for (const raw of ['total_memory_bytes', 'free_memory_bytes', 'rss_bytes', 'uptime_s', 'system.', 'load_average']) expect(text).not.toContain(raw);
    expect(errors).toEqual([]);
  });

  it('shows no bulk buttons over an empty diary, and the one that applies once there is an entry', async () => {
    const bulk = page.getByRole('button', { name: /selected/ });
    await page.goto(`${server.url}/#/diary`);
    await page.getByText('The diary is empty.').waitFor();
    expect(await bulk.count()).toBe(0);
    const { id } = await server.test.services.history.diary.add({ text: 'A first walk on the beach', tags: [] });
    await page.reload();
    await page.locator(`article.card[data-id="${id}"]`).waitFor();
    expect(await bulk.allTextContents()).toEqual(['Archive selected']);
    expect(errors).toEqual([]);
  });
});
