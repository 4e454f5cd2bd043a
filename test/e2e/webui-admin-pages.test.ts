import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, launchBrowser, PHONE, startServer, watchErrors, type RunningBrowser, type RunningServer } from '../helpers/browser.ts';

/** Diary, Archives, Logs and About over real data; one browser and one page for the file. */
describe('web UI: diary, archives, logs and about pages', () => {
  let server: RunningServer;
  let browser: RunningBrowser;
  let page: Page;
  let errors: string[];
  let diaryId: number;
  let archiveId: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ environment: { WEB_DEBUG: '1' } }), launchBrowser()]);
    const { history, activity } = server.test.services;
    // The diary has no HTTP write (the assistant writes it), so the entry goes in through its repository.
    diaryId = (await history.diary.add({ text: 'Walked by the sea with Ann 🌊', tags: ['outing'] })).id;
    await activity.add('e2e', 'seeded for the admin pages test');
    // A chat to archive, archived through the real HTTP API.
    const { interface_path } = history.sessions.resolve();
    await history.chat.save({ interface_path, message_text: 'Remember the lighthouse?', sender_name: 'Ann', sender_id: '7' });
    await history.chat.save({ interface_path, message_text: 'Of course!', sender_name: 'self', sender_id: 'self' });
    const archived = (await (await fetch(`${server.url}/api/chat/archive`, { method: 'POST' })).json()) as { success: boolean; archive_id: string };
    expect(archived.success).toBe(true);
    archiveId = archived.archive_id;
    const context = await browser.browser.newContext(PHONE);
    page = await context.newPage();
    errors = watchErrors(page);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('lists the diary entry and archives it', async () => {
    await page.goto(`${server.url}/#/diary`);
    const entry = page.locator(`article.card[data-id="${diaryId}"]`);
    await entry.locator('text=Walked by the sea with Ann 🌊').waitFor();
    expect(await entry.locator('.badge', { hasText: 'outing' }).count()).toBe(1);
    expect(await entry.locator('.badge', { hasText: 'archived' }).count()).toBe(0);
    await entry.getByRole('checkbox', { name: `Select entry ${diaryId}` }).check();
    await page.getByRole('button', { name: 'Archive selected', exact: true }).click();
    await entry.locator('.badge', { hasText: 'archived' }).waitFor();
    expect((await server.test.services.history.diary.list({ limit: 10 })).map((item) => [item.id, item.archived])).toEqual([[diaryId, true]]);
    await page.screenshot({ path: join(ARTIFACTS, 'webui-diary-phone.png') });
    expect(errors).toEqual([]);
  });

  it('lists the archive and renames it', async () => {
    await page.goto(`${server.url}/#/archives`);
    const card = page.locator(`article.card[data-id="${archiveId}"]`);
    await card.locator('text=2 messages').waitFor();
    await card.getByRole('textbox', { name: `Name of ${archiveId}` }).fill('The lighthouse talk');
    await card.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('status').filter({ hasText: 'Renamed' }).waitFor();
    expect((await server.test.services.history.archives.list()).map((archive) => archive.name)).toEqual(['The lighthouse talk']);
    // The list was reloaded from the server after the rename.
    expect(await page.locator(`article.card[data-id="${archiveId}"] input`).inputValue()).toBe('The lighthouse talk');
    expect(errors).toEqual([]);
  });

  it('streams live log lines (WEB_DEBUG=1) and shows the activity log', async () => {
    await page.goto(`${server.url}/#/logs`);
    await page.getByRole('status').filter({ hasText: 'Live.' }).waitFor();
    await page.locator('td', { hasText: 'seeded for the admin pages test' }).waitFor();
    // The test logger is silent; this one line goes through it at info level into the stream.
    server.test.services.logger.child({ component: 'e2e' }, { level: 'info' }).info('hello from the admin pages test');
    await page.locator('.log-lines', { hasText: '[e2e] hello from the admin pages test' }).waitFor();
    expect(await page.locator('.log-lines').textContent()).toMatch(/INFO \[e2e\] hello from the admin pages test/);
    expect(errors).toEqual([]);
  });

  it('shows the server facts of GET /api/about', async () => {
    await page.goto(`${server.url}/#/about`);
    const version = page.locator('tr', { has: page.locator('th', { hasText: /^Version$/ }) });
    await version.waitFor();
    expect(await version.locator('td').textContent()).toMatch(/^\d+\.\d+\.\d+/);
    expect(
      await page
        .locator('tr', { has: page.locator('th', { hasText: /^Process id$/ }) })
        .locator('td')
        .textContent(),
    ).toBe(String(process.pid));
    await page.screenshot({ path: join(ARTIFACTS, 'webui-about-phone.png'), fullPage: true });
    expect(errors).toEqual([]);
  });
});
