import { join } from 'node:path';
import { Ollama } from 'ollama';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, BROWSER_ENVIRONMENT, buildWebui, launchBrowser, watchErrors, type RunningBrowser } from '../helpers/browser.ts';
import { shippedRoots } from '../helpers/component-roots.ts';
import { useTestApp } from '../helpers/services.ts';

// Two windows load the page at once: well over 20 s on a busy two-core machine.
describe('web UI: the Operator page answers for the manual engine', { timeout: 90_000 }, () => {
  let browser: RunningBrowser;
  beforeAll(async () => {
    [browser] = await Promise.all([launchBrowser(), buildWebui()]);
  });
  afterAll(async () => browser?.close());
  const subject = useTestApp({
    componentRoots: shippedRoots,
    environment: { ...BROWSER_ENVIRONMENT, CORTEX_ENGINE: 'manual' },
    compat: true,
    listen: true,
  });
  // Registered after useTestApp, so the windows close before the app does.
  const windows: BrowserContext[] = [];
  afterEach(async () => {
    for (const window of windows.splice(0)) await window.close();
  });
  const url = (hash: string) => `http://127.0.0.1:${subject.ports.web}/${hash}`;

  /** A window of its own (own storage and session), its console errors collected. */
  const open = async (hash: string): Promise<{ page: Page; errors: string[] }> => {
    const window = await browser.context();
    windows.push(window);
    const page = await window.newPage();
    const errors = watchErrors(page);
    await page.goto(url(hash));
    return { page, errors };
  };
  const card = (page: Page, text: string) => page.locator('article.operator-prompt', { has: page.locator('.operator-question', { hasText: text }) });

  it("shows an Ollama client's question in every window; Send gives the client exactly that answer and the others see it go", async () => {
    const first = await open('#/operator');
    const second = await open('#/operator');
    await first.page.getByText('No prompt is waiting.').waitFor();
    const client = new Ollama({ host: `http://127.0.0.1:${subject.ports.compat}` });
    const reply = client.chat({ model: 'anima', messages: [{ role: 'user', content: 'What is the capital of Peru?' }] });

    const asked = card(first.page, 'What is the capital of Peru?');
    await asked.waitFor();
    await card(second.page, 'What is the capital of Peru?').waitFor();
    expect(await asked.locator('strong').first().textContent()).toBe('compat-client');
    expect(await asked.locator('.badge').textContent()).toBe('Ollama/OpenAI client');
    expect(await asked.locator('code').textContent()).toMatch(/^compat\//);
    expect(await asked.locator('time').textContent()).toMatch(/^(just now|\d+ s ago)$/);
    await first.page.screenshot({ path: join(ARTIFACTS, 'webui-operator.png') });

    const answer = 'Lima.\nOn the Pacific coast.';
    await asked.getByRole('textbox', { name: 'Answer to compat-client' }).fill(answer);
    await asked.getByRole('button', { name: 'Send' }).click();
    expect((await reply).message.content).toBe(answer);
    await asked.waitFor({ state: 'detached' });
    await card(second.page, 'What is the capital of Peru?').waitFor({ state: 'detached' });
    await second.page.getByText('No prompt is waiting.').waitFor();
    expect([...first.errors, ...second.errors]).toEqual([]);
  });

  it('answers a message typed in the web chat, from the Operator page of another window', async () => {
    const chat = await open('');
    const operator = await open('#/operator');
    await chat.page.getByRole('region', { name: 'Welcome' }).waitFor();
    await chat.page.getByLabel('Message').fill('Tell me a joke');
    await chat.page.getByRole('button', { name: 'Send' }).click();

    const asked = card(operator.page, 'Tell me a joke');
    await asked.waitFor();
    expect(await asked.locator('.badge').textContent()).toBe('Web chat');
    await asked.getByRole('textbox', { name: 'Answer to User' }).fill('Knock knock.');
    await asked.getByRole('button', { name: 'Send' }).click();
    await chat.page.locator('.chat-message.assistant', { hasText: 'Knock knock.' }).waitFor();
    await asked.waitFor({ state: 'detached' });
    expect([...chat.errors, ...operator.errors]).toEqual([]);
  });
});
