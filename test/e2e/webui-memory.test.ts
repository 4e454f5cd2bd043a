import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryStore } from '../../src/memory/memory-store.ts';
import { ARTIFACTS, launchBrowser, PHONE, startServer, watchErrors, type RunningBrowser, type RunningServer } from '../helpers/browser.ts';

/** The Memory page against the real server and its real API, on a phone-sized screen. */
describe('web UI: the Memory page', () => {
  let server: RunningServer;
  let browser: RunningBrowser;
  let page: Page;
  let errors: string[];
  let store: MemoryStore;
  let ann: number;
  let bob: number;

  const card = (text: string) => page.locator('article.memory', { hasText: text });
  const alert = (text: string) => page.getByRole('alert').filter({ hasText: text });

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    store = server.test.services.memory;
    ann = (await store.personFor('telegram_bot:1', 'Ann')).id;
    bob = (await store.personFor('webui:bob-session', 'Bob')).id;
    await store.create({ person_id: ann, kind: 'profile', text: 'Ann’s sister is called Mia', importance: 0.9 });
    await store.create({ person_id: bob, kind: 'fact', text: 'Bob is learning the cello', importance: 0.6, source_path: 'webui/bob-session' });
    const context = await browser.browser.newContext(PHONE);
    page = await context.newPage();
    // Every confirmation (delete, forget) is answered yes; a test that must see "no" says so.
    page.on('dialog', (dialog) => void dialog.accept());
    errors = watchErrors(page);
    await page.goto(`${server.url}/#/memory`);
    await card('Bob is learning the cello').waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('lists memories with their kind, person and source, and the people with their identities', async () => {
    const cello = card('Bob is learning the cello');
    expect(await cello.locator('.memory-kind').textContent()).toBe('fact');
    expect(await cello.getByRole('button', { name: 'Bob' }).count()).toBe(1);
    expect(await cello.locator('.memory-source').textContent()).toBe('webui/bob-session');
    const annCard = page.locator(`[data-person-id="${ann}"]`);
    expect(await annCard.locator('.identity').allTextContents()).toEqual(['telegram_bot:1']);
    expect(await annCard.textContent()).toContain('1 memory');
    const width = await page.evaluate(
      () => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth,
    );
    expect(width).toBeLessThanOrEqual(PHONE.viewport.width);
    await page.screenshot({ path: join(ARTIFACTS, 'webui-memory-phone.png'), fullPage: true });
  });

  it('adds a memory about a person', async () => {
    const add = page.getByRole('region', { name: 'Add a memory' });
    await add.getByRole('textbox', { name: 'New memory' }).fill('Ann plays chess on Sundays');
    await add.getByRole('combobox', { name: 'About' }).selectOption(String(ann));
    await add.getByRole('combobox', { name: 'Kind' }).selectOption('fact');
    await add.getByRole('spinbutton', { name: 'Importance' }).fill('0.8');
    await add.getByRole('button', { name: 'Add' }).click();
    await card('Ann plays chess on Sundays').waitFor();
    const stored = (await store.list({ personId: ann, limit: 10 })).find((memory) => memory.text === 'Ann plays chess on Sundays');
    expect(stored).toMatchObject({ kind: 'fact', importance: 0.8, pinned: false, person_id: ann });
  });

  it('shows the API’s refusal of an empty memory', async () => {
    const add = page.getByRole('region', { name: 'Add a memory' });
    await add.getByRole('textbox', { name: 'New memory' }).fill('   ');
    await add.getByRole('button', { name: 'Add' }).click();
    await alert('Invalid body').waitFor();
    expect(await alert('Invalid body').first().textContent()).toContain('text');
  });

  it('searches by words', async () => {
    await page.getByRole('searchbox', { name: 'Search memories' }).fill('cello');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('status').filter({ hasText: '1 memory for “cello”' }).waitFor();
    expect(await page.locator('article.memory .memory-text').allTextContents()).toEqual(['Bob is learning the cello']);
    await page.getByRole('searchbox', { name: 'Search memories' }).fill('');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await card('Ann’s sister is called Mia').waitFor();
  });

  it('edits a memory’s text', async () => {
    await card('Bob is learning the cello').getByRole('button', { name: 'Edit' }).click();
    const id = Number(await card('Bob is learning the cello').getAttribute('data-id'));
    await page.getByRole('textbox', { name: `Text of memory ${id}` }).fill('Bob is learning the viola');
    await page.locator(`article.memory[data-id="${id}"]`).getByRole('button', { name: 'Save' }).click();
    await card('Bob is learning the viola').waitFor();
    expect((await store.get(id))?.text).toBe('Bob is learning the viola');
  });

  it('pins and unpins a memory', async () => {
    const mia = card('Ann’s sister is called Mia');
    const id = Number(await mia.getAttribute('data-id'));
    await mia.getByRole('button', { name: 'Pin', exact: true }).click();
    await mia.locator('.badge', { hasText: 'pinned' }).waitFor();
    expect((await store.get(id))?.pinned).toBe(true);
    await mia.getByRole('button', { name: 'Unpin' }).click();
    await mia.getByRole('button', { name: 'Pin', exact: true }).waitFor();
    expect((await store.get(id))?.pinned).toBe(false);
  });

  it('deletes a memory after confirmation', async () => {
    const chess = card('Ann plays chess on Sundays');
    const id = Number(await chess.getAttribute('data-id'));
    await chess.getByRole('button', { name: 'Delete' }).click();
    await chess.waitFor({ state: 'detached' });
    expect(await store.get(id)).toBeUndefined();
  });

  it('links an identity to a person, and shows the API’s refusal of a malformed one', async () => {
    const people = page.getByRole('region', { name: 'People' });
    await people.getByRole('textbox', { name: 'Identity' }).fill('no-colon');
    await people.getByRole('combobox', { name: 'Link to person' }).selectOption(String(ann));
    await people.getByRole('button', { name: 'Link' }).click();
    await alert('an identity is <interface_id>:<user_id>').waitFor();

    await people.getByRole('textbox', { name: 'Identity' }).fill('discord:42');
    await people.getByRole('button', { name: 'Link' }).click();
    await page.locator(`[data-person-id="${ann}"] .identity`, { hasText: 'discord:42' }).waitFor();
    expect((await store.person(ann))?.identities).toEqual(['discord:42', 'telegram_bot:1']);
  });

  it('exports everything as a JSON download', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^anima-memory-\d{4}-\d{2}-\d{2}\.json$/);
    const exported = JSON.parse(await readFile((await download.path()) as string, 'utf8')) as { people: unknown[]; memories: Array<{ text: string }> };
    expect(exported.people).toHaveLength(2);
    expect(exported.memories.map((memory) => memory.text).sort()).toEqual(['Ann’s sister is called Mia', 'Bob is learning the viola']);
  });

  it('forgets a person after confirmation and keeps their identities', async () => {
    await page.locator(`[data-person-id="${bob}"]`).getByRole('button', { name: 'Forget' }).click();
    await page.getByRole('status').filter({ hasText: 'Forgot 1 memory of Bob' }).waitFor();
    await card('Bob is learning the viola').waitFor({ state: 'detached' });
    expect(await store.list({ personId: bob, limit: 10 })).toEqual([]);
    expect((await store.person(bob))?.identities).toEqual(['webui:bob-session']);
    expect(errors.filter((error) => !error.includes('status of 400'))).toEqual([]);
  });
});
