import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, launchBrowser, PHONE, startServer, watchErrors, type RunningBrowser, type RunningServer } from '../helpers/browser.ts';
import { selfSignedTls } from '../helpers/tls-files.ts';

interface Entry {
  key: string;
  value: string | { set: boolean };
  source: string;
  group: string;
  group_label: string;
  label: string;
  description: string;
}

/** Page-side globals, reached through globalThis (the project's type check has no DOM types). */
type PageScope = {
  document: {
    documentElement: { scrollWidth: number; scrollHeight: number };
    getElementById(id: string): { scrollHeight: number } | null;
    querySelectorAll(selector: string): Iterable<{ open: boolean }>;
  };
};

describe('web UI: the Configuration page', () => {
  let server: RunningServer;
  let browser: RunningBrowser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  const posts: string[] = [];

  const entries = async (): Promise<Map<string, Entry>> => {
    const { entries } = (await (await fetch(`${server.url}/api/config`)).json()) as { entries: Entry[] };
    return new Map(entries.map((entry) => [entry.key, entry]));
  };
  const section = (group: string) => page.locator(`details.config-section[data-group="${group}"]`);
  const field = (key: string) => page.locator(`.field[data-key="${key}"]`);
  const open = async (group: string) => {
    if (!(await section(group).evaluate((element) => (element as unknown as { open: boolean }).open))) await section(group).locator('summary').click();
  };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    context = await browser.browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    errors = watchErrors(page);
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/api/config')) posts.push(new URL(request.url()).pathname);
    });
    await page.goto(`${server.url}/#/config`);
    await section('server').waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('is compact at 1280 px: sections start collapsed (the page of every field was 16,052 px tall)', async () => {
    const height = await page.evaluate(() => {
      const { document } = globalThis as unknown as PageScope;
      return Math.max(document.documentElement.scrollHeight, document.getElementById('admin')?.scrollHeight ?? 0);
    });
    expect(height).toBeLessThan(1500);
    await page.screenshot({ path: join(ARTIFACTS, 'webui-config-desktop.png'), fullPage: true });
  });

  it('names sections and fields with the labels and help of the schema, and marks restart-only variables', async () => {
    const served = await entries();
    const level = served.get('LOGGING_LEVEL');
    expect(level).toMatchObject({ label: 'Logging level', group_label: 'Server and access' });
    expect(await section('server').locator('.section-title').textContent()).toBe('Server and access');
    await open('server');
    expect(await field('LOGGING_LEVEL').locator('label').textContent()).toBe('Logging level');
    expect(await field('LOGGING_LEVEL').locator('.help').textContent()).toBe(level?.description);
    expect(await field('APP_WEBUI_TLS_CERT').locator('label').textContent()).toBe('HTTPS certificate');
    expect(await field('APP_WEBUI_HTTP_PORT').locator('.badge.restart').textContent()).toBe('Restart required');
    expect(await field('LOGGING_LEVEL').locator('.badge.restart').count()).toBe(0);
  });

  it('hides the sections a search does not find, and counts only the fields it shows', async () => {
    const search = page.getByRole('searchbox', { name: 'Search settings' });
    await search.fill('timeout');
    const wanted = [...(await entries()).values()].filter((entry) =>
      [entry.key, entry.label, entry.description].some((text) => text.toLowerCase().includes('timeout')),
    );
    const shown = await page.locator('details.config-section').evaluateAll((sections) =>
      sections.map((element) => {
        const section = element as unknown as {
          hidden: boolean;
          dataset: { group: string };
          querySelector(selector: string): { textContent: string } | null;
          querySelectorAll(selector: string): ArrayLike<{ hidden: boolean }>;
        };
        return {
          group: section.dataset.group,
          hidden: section.hidden,
          count: Number(section.querySelector('.count')?.textContent),
          fields: Array.from(section.querySelectorAll('.field')).filter((item) => !item.hidden).length,
        };
      }),
    );
    const visible = shown.filter((item) => !item.hidden);
    expect(new Set(visible.map((item) => item.group))).toEqual(new Set(wanted.map((entry) => entry.group)));
    expect(shown.filter((item) => item.hidden).every((item) => item.fields === 0)).toBe(true);
    for (const item of visible) expect(item.count).toBe(item.fields);
    expect(visible.reduce((sum, item) => sum + item.fields, 0)).toBe(wanted.length);
    await page.screenshot({ path: join(ARTIFACTS, 'webui-config-search.png'), fullPage: true });
    await search.fill('');
    expect(await page.locator('details.config-section[hidden]').count()).toBe(0);
  });

  it('shows the changes of a section, credentials masked, before one Save sends them all', async () => {
    await open('server');
    await field('LOGGING_LEVEL').locator('select').selectOption('debug');
    await field('APP_RATE_LIMIT_PER_MINUTE').locator('input').fill('240');
    await field('APP_API_KEY').locator('input').fill('hunter2-secret');
    const changes = section('server').locator('.config-changes');
    expect(await changes.locator('li').allTextContents()).toEqual([
      'APP_API_KEY: not set → a new value (hidden)',
      'APP_RATE_LIMIT_PER_MINUTE: 600 → 240',
      'LOGGING_LEVEL: info → debug',
    ]);
    expect(await page.locator('#admin').textContent()).not.toContain('hunter2');
    // A credential inside a URL is masked as GET /api/config masks it.
    await open('cortex');
    await field('OPENAI_BASE_URL').locator('input').fill('https://anima:pa55word@llm.example/v1');
    expect(await section('cortex').locator('.config-changes li').allTextContents()).toEqual([
      'OPENAI_BASE_URL: https://api.openai.com/v1 → https://anima:***@llm.example/v1',
    ]);
    await section('cortex').getByRole('button', { name: 'Discard' }).click();
    expect(await section('cortex').locator('.config-changes').isHidden()).toBe(true);
    expect(posts).toEqual([]);

    await changes.getByRole('button', { name: 'Save 3 changes' }).click();
    await changes.waitFor({ state: 'hidden' });
    expect(posts).toEqual(['/api/config', '/api/config', '/api/config']);
    const saved = await entries();
    expect(saved.get('LOGGING_LEVEL')).toMatchObject({ value: 'debug', source: 'override' });
    expect(saved.get('APP_RATE_LIMIT_PER_MINUTE')).toMatchObject({ value: '240', source: 'override' });
    expect(saved.get('APP_API_KEY')).toMatchObject({ value: { set: true }, source: 'override' });
    expect(server.test.services.config.get('APP_API_KEY')).toBe('hunter2-secret');
    expect(await field('LOGGING_LEVEL').locator('.badge.source').textContent()).toBe('saved here');
    expect(errors).toEqual([]);
  });

  it('checks values before sending anything', async () => {
    posts.length = 0;
    await open('audio');
    await field('VOX_ENGINE_SETTINGS').locator('textarea').fill('{"speed": ');
    await section('audio').getByRole('button', { name: 'Save 1 change' }).click();
    expect(await field('VOX_ENGINE_SETTINGS').locator('.issue').textContent()).toMatch(/^Not valid JSON/);
    expect(posts).toEqual([]);
    await section('audio').getByRole('button', { name: 'Discard' }).click();
    expect(await field('VOX_ENGINE_SETTINGS').locator('textarea').inputValue()).toBe((await entries()).get('VOX_ENGINE_SETTINGS')?.value);
  });

  it('lets the voice-per-language editor write its JSON into the field its section saves', async () => {
    await open('audio');
    const editor = page.locator('#vox-language-overrides');
    await editor.getByRole('button', { name: 'Add language' }).click();
    const row = editor.locator('tbody tr').last();
    await row.getByRole('combobox', { name: 'Language' }).selectOption('it');
    await row.getByRole('textbox', { name: 'Voice' }).fill('giulia');
    const changes = section('audio').locator('.config-changes');
    expect(await changes.locator('li').allTextContents()).toEqual(['VOX_LANGUAGE_OVERRIDES: {} → {"it":{"engine":"disabled","voice":"giulia"}}']);
    await changes.getByRole('button', { name: 'Save 1 change' }).click();
    await changes.waitFor({ state: 'hidden' });
    expect(server.test.services.config.get('VOX_LANGUAGE_OVERRIDES')).toEqual({ it: { engine: 'disabled', voice: 'giulia' } });
  });

  it('uploads the files of file variables through their file inputs', async () => {
    posts.length = 0;
    await open('server');
    const { certificate, privateKey } = selfSignedTls();
    await field('APP_WEBUI_TLS_CERT')
      .locator('input[type="file"]')
      .setInputFiles({ name: 'cert.pem', mimeType: 'application/x-pem-file', buffer: Buffer.from(certificate) });
    await field('APP_WEBUI_TLS_KEY')
      .locator('input[type="file"]')
      .setInputFiles({ name: 'key.pem', mimeType: 'application/x-pem-file', buffer: Buffer.from(privateKey) });
    const changes = section('server').locator('.config-changes');
    expect(await changes.locator('li').allTextContents()).toEqual([
      'APP_WEBUI_TLS_CERT: (empty) → upload cert.pem',
      'APP_WEBUI_TLS_KEY: not set → upload key.pem',
    ]);
    await changes.getByRole('button', { name: 'Save 2 changes' }).click();
    await changes.waitFor({ state: 'hidden' });
    expect(posts).toEqual(['/api/config/APP_WEBUI_TLS_CERT/upload', '/api/config/APP_WEBUI_TLS_KEY/upload']);

    const { config, paths } = server.test.services;
    const stored = config.rawValue('APP_WEBUI_TLS_CERT') ?? '';
    expect(resolve(paths.cwd, stored)).toBe(resolve(paths.cwd, paths.backups, 'config_files', 'APP_WEBUI_TLS_CERT', 'cert.pem'));
    expect(await readFile(resolve(paths.cwd, stored), 'utf8')).toBe(certificate);
    expect((await entries()).get('APP_WEBUI_TLS_KEY')).toMatchObject({ value: { set: true }, source: 'override' });
    expect(await field('APP_WEBUI_TLS_CERT').textContent()).toContain(`Current file: ${stored}`);
    expect(await field('APP_WEBUI_TLS_CERT').getByRole('button', { name: 'Download' }).count()).toBe(1);
    expect(await field('APP_WEBUI_TLS_KEY').textContent()).toContain('A file is set.');
    expect(await field('APP_WEBUI_TLS_KEY').getByRole('button', { name: 'Download' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('fits a 390 px phone with every section open', async () => {
    const phone = await browser.browser.newContext({ ...PHONE, viewport: { width: 390, height: 844 } });
    const small = await phone.newPage();
    const phoneErrors = watchErrors(small);
    await small.goto(`${server.url}/#/config`);
    await small.locator('details.config-section').first().waitFor();
    await small.locator('details.config-section').evaluateAll((sections) => {
      for (const element of sections) (element as unknown as { open: boolean }).open = true;
    });
    await small.locator('#vox-language-overrides table').waitFor();
    expect(await small.evaluate(() => (globalThis as unknown as PageScope).document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await small.screenshot({ path: join(ARTIFACTS, 'webui-config-phone.png'), fullPage: true });
    expect(phoneErrors).toEqual([]);
    await phone.close();
    // A full-page capture of every open section is large, and the machine is shared.
  }, 60_000);
});
