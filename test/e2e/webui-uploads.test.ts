import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { CDPSession, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnimationChange } from '../../src/body/animation-payload.ts';
import { ARTIFACTS, launchBrowser, startServer, watchErrors, type RunningBrowser, type RunningServer } from '../helpers/browser.ts';
import { dropFiles } from '../helpers/drag-and-drop.ts';
import { ASCII_FBX_FILE, VRM_1_FILE, VRMA_FILE } from '../helpers/upload-files.ts';

/** Records every value the page's upload progress bars take (attribute changes, in the page). */
const RECORD_PROGRESS = `(() => {
  globalThis.__progress = [];
  new MutationObserver((changes) => {
    for (const change of changes) if (change.target.localName === 'progress' && change.target.hasAttribute('value')) globalThis.__progress.push(change.target.value);
  }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['value'] });
})()`;

describe('web UI: uploads page', () => {
  let server: RunningServer;
  let browser: RunningBrowser;
  let skins: string;
  let page: Page;
  let errors: string[];
  const requests: string[] = [];
  const changes: AnimationChange[] = [];

  beforeAll(async () => {
    // A copy of the default skin: uploads land in <SKINS_DIR>/temp and promotions in the skin itself.
    skins = await mkdtemp(join(tmpdir(), 'anima-e2e-uploads-'));
    await cp(resolve('skins/default'), join(skins, 'default'), { recursive: true });
    [server, browser] = await Promise.all([startServer({ environment: { SKINS_DIR: skins, COMPANION_PROMOTE_ENABLED: '1' } }), launchBrowser()]);
    server.test.services.body.onAnimationStateChanged((change) => changes.push(change));
    page = await (await browser.context()).newPage();
    errors = watchErrors(page);
    page.on('request', (request: Request) => requests.push(decodeURIComponent(new URL(request.url()).pathname)));
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(`${server.url}/#/uploads`);
    await page.getByText('No uploads yet.').waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await rm(skins, { recursive: true, force: true });
  });

  const uploads = () => server.test.services.avatarFiles.uploads.list();
  const animationInput = () => page.getByLabel('Animation file');
  const card = (file: string) => page.locator('article.upload', { hasText: file });

  it('uploads a clip with its descriptor for the chosen state, showing its progress', async () => {
    await page.getByRole('link', { name: 'Uploads' }).waitFor();
    await page.evaluate(RECORD_PROGRESS);
    // A slow link, so the upload takes long enough for its progress to show between 0 and 100 %.
    const cdp: CDPSession = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 40 * 1024 });
    await page.getByRole('combobox', { name: 'State' }).fill('write');
    await animationInput().setInputFiles([ASCII_FBX_FILE, `${ASCII_FBX_FILE}.json`]);
    await page.getByRole('status').filter({ hasText: 'Thinking.fbx uploaded.' }).waitFor({ timeout: 20_000 });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    const shown = await page.evaluate('globalThis.__progress');
    expect(
      (shown as number[]).some((value) => value > 0 && value < 1),
      `progress values ${JSON.stringify(shown)}`,
    ).toBe(true);
    expect((shown as number[]).at(-1)).toBe(1);

    await card('Thinking.fbx').waitFor();
    expect(await card('Thinking.fbx').locator('.badge').allTextContents()).toEqual(['write', 'descriptor']);
    const [stored] = await uploads();
    expect(stored).toMatchObject({ state: 'write', file: 'Thinking.fbx', has_descriptor: true });
    expect(await card('Thinking.fbx').getAttribute('data-id')).toBe(stored?.upload_id);
    await page.screenshot({ path: join(ARTIFACTS, 'webui-uploads.png'), fullPage: true });
    expect(errors).toEqual([]);
  }, 60_000);

  it('plays the upload on the avatar', async () => {
    const [upload] = await uploads();
    const url = upload?.url ?? '';
    const loaded = page.waitForResponse((response) => decodeURIComponent(new URL(response.url()).pathname) === url, { timeout: 20_000 });
    await card('Thinking.fbx').getByRole('button', { name: 'Play' }).click();
    await page.getByRole('status').filter({ hasText: 'Playing Thinking.fbx (write) on the avatar' }).waitFor();
    // The body played the uploaded file for its state, and this window's avatar fetched it to show it.
    expect(changes).toContainEqual(expect.objectContaining({ state: 'write', url, source: 'uploads' }));
    expect((await loaded).status()).toBe(200);
    expect(errors).toEqual([]);
  }, 30_000);

  it('promotes the upload into the skin', async () => {
    await card('Thinking.fbx').getByRole('button', { name: 'Promote into the skin' }).click();
    await page.getByRole('status').filter({ hasText: 'Promoted into default/animations/write/Thinking.fbx' }).waitFor();
    await page.getByText('No uploads yet.').waitFor();
    const promoted = join(skins, 'default/animations/write/Thinking.fbx');
    expect(await readFile(promoted)).toEqual(await readFile(ASCII_FBX_FILE));
    expect(existsSync(`${promoted}.json`)).toBe(true);
    expect(await uploads()).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('takes a clip dropped on the zone, and deletes it', async () => {
    await page.getByRole('combobox', { name: 'State' }).fill('think');
    await dropFiles(page.locator('.drop-zone', { has: animationInput() }), [{ name: basename(VRMA_FILE), bytes: await readFile(VRMA_FILE) }]);
    await card('test.vrma').waitFor();
    expect((await uploads()).map((upload) => [upload.state, upload.file])).toEqual([['think', 'test.vrma']]);
    await card('test.vrma').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No uploads yet.').waitFor();
    expect(await uploads()).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("shows the API's error for a file that is not an animation, and for an unknown state", async () => {
    await animationInput().setInputFiles({ name: 'notes.fbx', mimeType: 'application/octet-stream', buffer: Buffer.from('just some notes') });
    await page.getByRole('alert').filter({ hasText: 'notes.fbx: The file is neither FBX (binary or ASCII) nor a VRM Animation (.vrma)' }).waitFor();
    await page.getByRole('combobox', { name: 'State' }).fill('dance');
    await animationInput().setInputFiles(ASCII_FBX_FILE);
    await page.getByRole('alert').filter({ hasText: 'Thinking.fbx: Unknown state "dance"; known states: idle, talk, think, write' }).waitFor();
    expect(await uploads()).toEqual([]);
    expect(await page.getByText('No uploads yet.').count()).toBe(1);
    // The browser reports each refused request in the console; nothing else went wrong.
    expect(errors.filter((error) => !/status of (400|415)/.test(error))).toEqual([]);
    errors.length = 0;
  });

  it("makes a dropped VRM the avatar's model", async () => {
    const sha256 = createHash('sha256')
      .update(await readFile(VRM_1_FILE))
      .digest('hex');
    await dropFiles(page.locator('.drop-zone', { has: page.getByLabel('VRM model') }), [{ name: basename(VRM_1_FILE), bytes: await readFile(VRM_1_FILE) }]);
    await page.getByText('Current model: VRMC_vrm_expressions_isBinary_Overrides').waitFor();
    expect(server.test.services.body.getVrmModel()).toMatchObject({ url: `/vrm/${sha256}.vrm`, name: 'VRMC_vrm_expressions_isBinary_Overrides' });
    // This window's avatar was told of the new model and loads it.
    await expect.poll(() => requests.includes(`/vrm/${sha256}.vrm`), { timeout: 10_000 }).toBe(true);
    expect(errors).toEqual([]);
  });
});
