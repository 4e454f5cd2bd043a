import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  launchBrowser,
  recordEvents,
  startServer,
  waitForAvatar,
  waitForRecorded,
  watchErrors,
  type RunningBrowser,
  type RunningServer,
} from '../helpers/browser.ts';
import { ManualClock } from '../helpers/manual-clock.ts';

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
    await writeFile(
      join(skins, 'default/animations/talk/talking.fbx.json'),
      JSON.stringify({ fps: 30, loop: { start_frame: 0, end_frame: 20 }, play_once: true }),
    );
    [server, browser] = await Promise.all([startServer({ environment: { SKINS_DIR: skins } }), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await rm(skins, { recursive: true, force: true });
  });

  async function openPage(on = server): Promise<{ page: Page; errors: string[] }> {
    const context = await browser.context();
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(on.url);
    await waitForAvatar(page);
    await recordEvents(page, ['app_animation_state_updated', 'anima:animation-section']);
    return { page, errors };
  }

  const post = (url: string, payload: object, on = server) => on.app.inject({ method: 'POST', url, payload, remoteAddress: '127.0.0.1' });

  it('shows a state change in two pages at once and fires app_animation_state_updated', async () => {
    // Without a message in the chain a watchdog tick right after the request would end `write` before the
    // pages load its clip; pretend one is.
    server.test.services.body.registerWatchdogProbe('write', () => true);
    const [first, second] = await Promise.all([openPage(), openPage()]);
    const response = await post('/api/animation_state', { state: 'write' });
    expect(response.json()).toMatchObject({ accepted: true, state: 'write' });
    type StateEvent = { type: string; detail: { action?: string; timing?: { started_at?: string } } };
    const writeEvent = (events: StateEvent[]) => events.find((event) => event.type === 'app_animation_state_updated' && event.detail.action === 'write');
    const [a, b] = await Promise.all([
      waitForRecorded<StateEvent['detail']>(first.page, (events) => writeEvent(events) !== undefined),
      waitForRecorded<StateEvent['detail']>(second.page, (events) => writeEvent(events) !== undefined),
    ]);
    // Both windows play the one broadcast command: the same state, started at the same instant.
    const startedAt = (events: StateEvent[]) => writeEvent(events)?.detail.timing?.started_at;
    expect(startedAt(a)).toEqual(expect.any(String));
    expect(startedAt(a)).toBe(startedAt(b));
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
    try {
      const started = await post('/api/animation_state', { state: 'think', context_id: 'e2e-think' });
      expect(started.json()).toMatchObject({ accepted: true, state: 'think' });
      const sectionsOf = (events: Array<{ type: string; detail: Section }>) =>
        events.filter((event) => event.type === 'anima:animation-section' && event.detail.state === 'think').map((event) => event.detail.section);
      await waitForRecorded<Section>(page, (events) => sectionsOf(events).includes('loop'));
      expect((await post('/api/body/action', { stop: 'e2e-think' })).json()).toMatchObject({ accepted: true });
      // The client plays the outro; the server returns to idle after the outro's length, and the page
      // must end up showing idle whatever the order the two arrive in on a busy machine.
      const lastSection = (events: Array<{ type: string; detail: Section }>) => events.findLast((event) => event.type === 'anima:animation-section')?.detail;
      const events = await waitForRecorded<Section>(page, (recorded) => sectionsOf(recorded).includes('outro') && lastSection(recorded)?.state === 'idle');
      expect(sectionsOf(events)).toEqual(['intro', 'loop', 'outro']);
      expect(lastSection(events)).toMatchObject({ state: 'idle', section: 'loop' });
      expect((await server.app.inject({ url: '/api/animation_state', remoteAddress: '127.0.0.1' })).json()).toMatchObject({ state: 'idle' });
      expect(errors).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('plays a non-looping clip once and ends it with the client completion event', async () => {
    // The server's fallback ends a one-shot clip 1.5 s after its length if no window reports its end. A page
    // drawing a few frames a second (software WebGL on a busy machine) plays slower than that, so this
    // server's clock stands still: only the page's completion can end the clip.
    const clock = new ManualClock(Date.now());
    const own = await startServer({ clock, environment: { SKINS_DIR: skins } });
    const completions = vi.spyOn(own.test.services.body, 'completeAnimation');
    const { page, errors } = await openPage(own);
    try {
      expect((await post('/api/animation_state', { state: 'talk', loop: false }, own)).json()).toMatchObject({ accepted: true, state: 'talk' });
      await waitForRecorded<Section>(page, (events) => events.some((event) => event.detail.state === 'talk' && event.detail.section === 'loop'));
      const talkCompleted = () => completions.mock.calls.some(([file, state]) => file === '/skins/default/animations/talk/talking.fbx' && state === 'talk');
      await expect.poll(talkCompleted, { timeout: 30_000, interval: 50 }).toBe(true);
      expect((await own.app.inject({ url: '/api/animation_state', remoteAddress: '127.0.0.1' })).json()).toMatchObject({ state: 'idle' });
      expect(errors).toEqual([]);
    } finally {
      completions.mockRestore();
      await page.context().close();
      await own.close();
    }
  });
});
