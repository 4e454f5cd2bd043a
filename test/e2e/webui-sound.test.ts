import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shippedRoots } from '../helpers/component-roots.ts';
import { ARTIFACTS, launchBrowser, PHONE, startServer, watchErrors, type RunningBrowser, type RunningServer } from '../helpers/browser.ts';

/** What the page did with media, in order: every click, and every `play()` once it settled (URL and outcome). */
type MediaEvent = { kind: 'click' } | { kind: 'play'; src: string; outcome: string };

async function waitFor<T>(condition: () => T | undefined, what: () => string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = condition();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${what()} never happened`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('web UI: speech when the browser blocks autoplay', () => {
  let server: RunningServer;
  let browser: RunningBrowser;

  beforeAll(async () => {
    // Shipped components: the webui interface (tts_play) and Vox's local engine.
    [server, browser] = await Promise.all([startServer({ componentRoots: shippedRoots }), launchBrowser({ autoplay: 'blocked' })]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('offers "Tap to enable sound", and the tap plays the refused speech', async () => {
    const context = await browser.browser.newContext(PHONE);
    // Every page.evaluate (and waitForFunction) of playwright runs as a user gesture, which would lift
    // the autoplay block: until the speech has been refused, the page reports to Node instead.
    const media: MediaEvent[] = [];
    await context.exposeFunction('__reportMedia', (event: MediaEvent) => void media.push(event));
    await context.addInitScript(() => {
      const scope = globalThis as unknown as {
        __reportMedia: (event: MediaEvent) => void;
        addEventListener: (type: string, listener: () => void, capture: boolean) => void;
        HTMLMediaElement: { prototype: { play: () => Promise<void>; src: string } };
      };
      scope.addEventListener('click', () => scope.__reportMedia({ kind: 'click' }), true);
      const original = scope.HTMLMediaElement.prototype.play;
      scope.HTMLMediaElement.prototype.play = function play(this: { src: string }) {
        const src = this.src;
        const started = original.call(this);
        started.then(
          () => scope.__reportMedia({ kind: 'play', src, outcome: 'playing' }),
          (error: { name: string }) => scope.__reportMedia({ kind: 'play', src, outcome: error.name }),
        );
        return started;
      };
    });
    const page = await context.newPage();
    const errors = watchErrors(page);
    // Joined: the chat socket has sent the history (seen on the wire, not by asking the page).
    const joined = new Promise<void>((resolve) =>
      page.on('websocket', (socket) => {
        if (new URL(socket.url()).pathname === '/ws')
          socket.on('framereceived', ({ payload }) => void (String(payload).includes('"chat_history"') && resolve()));
      }),
    );
    await page.goto(server.url);
    await joined;

    const { interface_path: interfacePath } = server.test.services.history.sessions.resolve();
    const spoken = await server.test.services.audio.vox.speak({ text: 'Can you hear me?', interfacePath });
    expect(spoken).toMatchObject({ status: 'success', delivered: true });
    await waitFor(
      () => media.find((event) => event.kind === 'play'),
      () => `a play() (${JSON.stringify(media)})`,
    );
    expect(media).toEqual([{ kind: 'play', src: expect.stringContaining(spoken.url ?? '?'), outcome: 'NotAllowedError' }]);
    const button = page.getByRole('button', { name: 'Tap to enable sound' });
    await button.waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'webui-sound-blocked-phone.png') });

    await button.click();
    await button.waitFor({ state: 'hidden' });
    const click = media.findIndex((event) => event.kind === 'click');
    expect(click).toBeGreaterThan(0);
    const played = await waitFor(
      () => media.slice(click + 1).find((event) => event.kind === 'play'),
      () => `a play() after the click (${JSON.stringify(media)})`,
    );
    expect(played).toEqual({ kind: 'play', src: expect.stringContaining(spoken.url ?? '?'), outcome: 'playing' });
    expect(errors).toEqual([]);
    await context.close();
  });
});
