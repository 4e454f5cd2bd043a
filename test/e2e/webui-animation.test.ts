import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchBrowser, recordEvents, startServer, waitForAvatar, waitForRecorded, watchErrors, type RunningBrowser, type RunningServer } from './browser.ts';

interface Section {
  file: string;
  state: string;
  section: string;
}

describe('web UI: animation playback driven by the server', () => {
  let server: RunningServer;
  let browser: RunningBrowser;
  let skins: string;

  beforeAll(async () => {
    // The default skin, with `talk` made a short play-once clip (the shipped skin has only looping ones).
    skins = await mkdtemp(join(tmpdir(), 'anima-e2e-skins-'));
    await cp(resolve('skins/default'), join(skins, 'default'), { recursive: true });
    await writeFile(join(skins, 'default/animations/talk/talking.fbx.json'), JSON.stringify({ fps: 30, loop: { start_frame: 0, end_frame: 20 }, play_once: true }));
    [server, browser] = await Promise.all([startServer({ environment: { SKINS_DIR: skins } }), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await rm(skins, { recursive: true, force: true });
  });

  async function openPage(): Promise<{ page: Page; errors: string[] }> {
    const context = await browser.context();
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(server.url);
    await waitForAvatar(page);
    await recordEvents(page, ['app_animation_state_updated', 'anima:animation-section']);
    return { page, errors };
  }

  const post = (url: string, payload: object) => server.app.inject({ method: 'POST', url, payload, remoteAddress: '127.0.0.1' });

  it('shows a state change in two pages at once and fires app_animation_state_updated', async () => {
    const [first, second] = await Promise.all([openPage(), openPage()]);
    const response = await post('/api/animation_state', { state: 'write' });
    expect(response.json()).toMatchObject({ accepted: true, state: 'write' });
    const isWrite = (events: Array<{ type: string; detail: { action?: string } }>) =>
      events.some((event) => event.type === 'app_animation_state_updated' && event.detail.action === 'write');
    const [a, b] = await Promise.all([waitForRecorded(first.page, isWrite), waitForRecorded(second.page, isWrite)]);
    const at = (events: typeof a) => events.find((event) => event.type === 'app_animation_state_updated')?.at ?? 0;
    expect(Math.abs(at(a) - at(b))).toBeLessThan(500);
    await waitForRecorded<Section>(first.page, (events) => events.some((event) => event.detail.state === 'write'));
    // Ends the context (a plain `idle` request would leave it open and hold off the next test's outro).
    await post('/api/body/action', { stop: (response.json() as { context_id: string }).context_id });
    expect([...first.errors, ...second.errors]).toEqual([]);
    await Promise.all([first.page.context().close(), second.page.context().close()]);
  });

  it('plays an intro, then the loop, and the outro on stop, then idle', async () => {
    // Without a message in the chain the watchdog would end `think` at its next tick; pretend one is.
    server.test.services.body.registerWatchdogProbe('think', () => true);
    const { page, errors } = await openPage();
    const started = await post('/api/animation_state', { state: 'think', context_id: 'e2e-think' });
    expect(started.json()).toMatchObject({ accepted: true, state: 'think' });
    const sectionsOf = (events: Array<{ type: string; detail: Section }>) =>
      events.filter((event) => event.type === 'anima:animation-section' && event.detail.state === 'think').map((event) => event.detail.section);
    await waitForRecorded<Section>(page, (events) => sectionsOf(events).includes('loop'));
    expect((await post('/api/body/action', { stop: 'e2e-think' })).json()).toMatchObject({ accepted: true });
    // The client plays the outro; the server returns to idle after the outro's length.
    const events = await waitForRecorded<Section>(page, (events) =>
      events.some((event) => event.type === 'anima:animation-section' && event.detail.state === 'idle' ) && sectionsOf(events).includes('outro'),
    );
    expect(sectionsOf(events)).toEqual(['intro', 'loop', 'outro']);
    const idle = events.findLast((event) => event.type === 'anima:animation-section');
    expect(idle?.detail).toMatchObject({ state: 'idle', section: 'loop' });
    expect((await server.app.inject({ url: '/api/animation_state', remoteAddress: '127.0.0.1' })).json()).toMatchObject({ state: 'idle' });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('plays a non-looping clip once and sends animation_complete before the fallback timer of the server', async () => {
    const completions = vi.spyOn(server.test.services.body, 'completeAnimation');
    const { page, errors } = await openPage();
    const started = Date.now();
    expect((await post('/api/animation_state', { state: 'talk', loop: false })).json()).toMatchObject({ accepted: true, state: 'talk' });
    await waitForRecorded<Section>(page, (events) => events.some((event) => event.detail.state === 'talk' && event.detail.section === 'loop'));
    await expect.poll(() => completions.mock.calls.length, { timeout: 5000, interval: 50 }).toBeGreaterThan(0);
    expect(completions).toHaveBeenCalledWith('/skins/default/animations/talk/talking.fbx', 'talk');
    // 21 frames at 30 fps is 0.7 s; the server's fallback would end it only at 2.2 s.
    expect(Date.now() - started).toBeLessThan(2200);
    expect((await server.app.inject({ url: '/api/animation_state', remoteAddress: '127.0.0.1' })).json()).toMatchObject({ state: 'idle' });
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
