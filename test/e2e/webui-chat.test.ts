import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeOpenAi } from '../helpers/openai-server.ts';
import {
  ARTIFACTS,
  recordEvents,
  startModelStack,
  waitForAvatar,
  waitForRecorded,
  watchErrors,
  type ModelStack,
  type RunningBrowser,
  type RunningServer,
} from '../helpers/browser.ts';

describe('web UI: chat', () => {
  let fake: FakeOpenAi;
  let server: RunningServer;
  let browser: RunningBrowser;

  let stack: ModelStack | undefined;

  beforeAll(async () => {
    stack = await startModelStack();
    ({ fake, server, browser } = stack);
  });

  afterAll(async () => stack?.close());

  it('sends a message over the socket and shows the streamed reply from the model', async () => {
    fake.script({ kind: 'reply', text: 'Hello from the test model!', chunkSize: 4, delayMs: 20 });
    const context = await browser.context();
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(server.url);
    await waitForAvatar(page);
    await page.getByLabel('Message').fill('Hi Anima');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('.chat-message.user', { hasText: 'Hi Anima' }).waitFor();
    await page.locator('.chat-message.assistant', { hasText: 'Hello from the test model!' }).waitFor({ timeout: 15_000 });
    expect(fake.requests.at(-1)?.body.messages?.at(-1)).toMatchObject({ role: 'user', content: expect.stringContaining('Hi Anima') });
    await page.screenshot({ path: join(ARTIFACTS, 'webui-chat.png') });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('plays a spoken answer once although both vrm_audio and tts_play announce it', async () => {
    fake.script({
      kind: 'reply',
      text: '{"actions": [{"type": "tts_speak", "payload": {"text": "Listen to me"}}, {"type": "message_webui", "payload": {"text": "Listen to me!"}}]}',
    });
    const context = await browser.context();
    // Counts every start of a media element, whoever starts it.
    await context.addInitScript(() => {
      const scope = globalThis as unknown as { __plays: string[]; HTMLMediaElement: { prototype: { play: () => Promise<void>; src: string } } };
      scope.__plays = [];
      const original = scope.HTMLMediaElement.prototype.play;
      scope.HTMLMediaElement.prototype.play = function play(this: { src: string }) {
        scope.__plays.push(this.src);
        return original.call(this);
      };
    });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(server.url);
    await waitForAvatar(page);
    await recordEvents(page, ['app:tts-play']);
    await page.getByLabel('Message').fill('Say something');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('.chat-message.assistant', { hasText: 'Listen to me!' }).waitFor({ timeout: 15_000 });
    const [event] = await waitForRecorded<{ url: string; text: string }>(page, (events) => events.length > 0);
    expect(event?.detail).toMatchObject({ url: expect.stringMatching(/^\/tts\/vox-.*\.wav$/), text: 'Listen to me!' });
    await page.waitForTimeout(300);
    const plays = await page.evaluate(() => (globalThis as unknown as { __plays: string[] }).__plays);
    expect(plays).toEqual([expect.stringContaining(event?.detail.url ?? '?')]);
    // The caption shows once: the merged message action was suppressed by the chain.
    expect(await page.locator('.chat-message.assistant', { hasText: 'Listen to me!' }).count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});
