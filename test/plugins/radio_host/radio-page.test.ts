import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AzuraCastServer } from '../../helpers/azuracast-server.ts';
import { ARTIFACTS, launchBrowser, PHONE, type RunningBrowser, type RunningServer, startServer, watchErrors } from '../../helpers/browser.ts';
import { type LiquidsoapHarbor, startHarbor } from '../../helpers/liquidsoap-harbor.ts';

/**
 * The Radio page in Chromium over the whole chain: a local AzuraCast API with a short song, the radio host
 * speaking through the bundled Vox engine, and a real Liquidsoap harbor receiving the break.
 */
describe('web UI: the Radio page', { timeout: 120_000 }, () => {
  let harbor: LiquidsoapHarbor;
  let server: RunningServer;
  let browser: RunningBrowser;
  let page: Page;
  let errors: string[];
  let station: AzuraCastServer;

  beforeAll(async () => {
    harbor = await startHarbor({ username: 'dj', password: 'right' });
    browser = await launchBrowser();
    // The playlist starts now, on the real clock: the host must see the first song before it ends.
    station = new AzuraCastServer({
      clock: { now: () => Date.now() },
      songs: [
        { title: 'Opening Tune', artist: 'The Testers', durationS: 15 },
        { title: 'Long Second', artist: 'The Testers', durationS: 300 },
      ],
    });
    await station.start();
    server = await startServer({
      componentRoots: { plugins: fileURLToPath(new URL('../../../plugins', import.meta.url)) },
      environment: {
        RADIO_HOST_ENABLED: 'true',
        STATION_BASE_URL: station.url,
        STATION_ID: station.shortcode,
        RADIO_HOST_POLL_INTERVAL_S: '1',
        STATION_WEBDJ_URL: harbor.url,
        STATION_STREAMER_USERNAME: 'dj',
        STATION_STREAMER_PASSWORD: 'right',
      },
    });
    page = await (await browser.browser.newContext(PHONE)).newPage();
    errors = watchErrors(page);
    // Liquidsoap, Chromium and the app together take over a minute on a loaded two-core machine.
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await station?.close();
    await harbor?.stop();
  });

  it('shows the station, the break going on air and its banter, live', async () => {
    await page.goto(`${server.url}/#/radio`);
    const status = page.getByRole('region', { name: 'Radio status' });
    await status.getByText('Following the station').waitFor();
    await status.getByText('Anima FM').waitFor();
    const activity = page.getByRole('region', { name: 'Radio activity' });
    // The break after the first song arrives at the harbor, and the page follows without a reload.
    // On failure, what the radio host saw says why (a song missed, speech too slow on a loaded machine).
    const recording = await harbor.nextRecording(60_000).catch(async (error: unknown) => {
      const seen = JSON.stringify(await (await fetch(`${server.url}/api/radio/data`)).json());
      throw new Error(`${error instanceof Error ? error.message : String(error)}; /api/radio/data: ${seen}`);
    });
    expect(recording.endedAtMs).toBeGreaterThan(recording.startedAtMs);
    await activity.locator('li[data-kind="injected"]').waitFor({ timeout: 30_000 });
    expect(await activity.locator('li[data-kind="injected"] .radio-message').textContent()).toMatch(
      /^On air \(template, [\d.]+ s\): .*Opening Tune by The Testers/,
    );
    await page.getByRole('region', { name: 'Now playing' }).getByText('Long Second — The Testers').waitFor({ timeout: 30_000 });
    expect(await activity.locator('li[data-kind="track"]').count()).toBeGreaterThanOrEqual(2);

    await activity.locator('li[data-kind="banter_ready"]').first().getByRole('button', { name: 'Listen' }).click();
    const player = page.getByLabel('Banter player');
    await player.waitFor();
    expect(await player.getAttribute('src')).toMatch(/^blob:/);
    await page.screenshot({ path: join(ARTIFACTS, 'webui-radio-phone.png'), fullPage: true });
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
