import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { record } from '../fixtures/components/record.ts';
import { fixtureRoots, shippedRoots } from '../helpers/component-roots.ts';
import { ARTIFACTS, launchBrowser, startServer, waitForAvatar, watchErrors, type RunningBrowser, type RunningServer } from '../helpers/browser.ts';

interface FaceProbe {
  sample(keys?: string[]): { weights: Record<string, number> } | null;
}

/** The weight the page's face gave the model's `happy` expression this frame (window.__app_face). */
const happyWeight = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { __app_face?: FaceProbe }).__app_face?.sample(['happy'])?.weights.happy ?? Number.NaN);

/** The shipped web UI, interfaces and plugins (the emotion manager among them), and the scripted test engine. */
describe('web UI: emotions', () => {
  let server: RunningServer;
  let browser: RunningBrowser;

  beforeAll(async () => {
    record.reset();
    [server, browser] = await Promise.all([
      startServer({
        componentRoots: { ...shippedRoots, cortex: fixtureRoots.cortex },
        // Memory would ask the scripted engine for its own extraction after the answer.
        environment: { CORTEX_ENGINE: 'scripted', MEMORY_ENABLED: 'false' },
      }),
      launchBrowser(),
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows an [em_happy] reply without its tag, and the face turns happy on the page', async () => {
    const context = await browser.context();
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(server.url);
    await waitForAvatar(page);
    expect(await happyWeight(page)).toBeLessThan(0.5);

    record.script.push('[em_happy] So good to see you!');
    await page.getByLabel('Message').fill('Hi there');
    await page.getByRole('button', { name: 'Send' }).click();
    const reply = page.locator('.chat-message.assistant', { hasText: 'So good to see you!' });
    await reply.waitFor({ timeout: 15_000 });
    expect(await reply.textContent()).not.toContain('[em_');
    await page.waitForFunction(
      () => ((globalThis as unknown as { __app_face?: FaceProbe }).__app_face?.sample(['happy'])?.weights.happy ?? 0) >= 0.5,
      undefined,
      { timeout: 10_000 },
    );
    await page.screenshot({ path: join(ARTIFACTS, 'webui-emotion-happy.png') });
    expect(errors).toEqual([]);
    await context.close();
  });
});
