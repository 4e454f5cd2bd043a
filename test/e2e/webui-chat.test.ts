import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientMessageSchema } from '../../src/realtime/protocol.ts';
import { shippedRoots } from '../helpers/component-roots.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../helpers/openai-server.ts';
import { ARTIFACTS, launchBrowser, startServer, waitForAvatar, watchErrors, type RunningBrowser, type RunningServer } from './browser.ts';

/** The socket's side of chat (contract: "Chat over the web UI socket") is built separately; run once it exists. */
const socketTakesChat = ClientMessageSchema.options.some((option) => (option.shape.type.value as string) === 'chat');

describe.skipIf(!socketTakesChat)('web UI: chat', () => {
  let fake: FakeOpenAi;
  let server: RunningServer;
  let browser: RunningBrowser;

  beforeAll(async () => {
    fake = await startFakeOpenAi({ apiKey: 'sk-test' });
    [server, browser] = await Promise.all([
      startServer({
        componentRoots: shippedRoots,
        environment: { CORTEX_ENGINE: 'openai', OPENAI_BASE_URL: fake.baseUrl, OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'gpt-test' },
      }),
      launchBrowser(),
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await fake?.close();
  });

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
});
