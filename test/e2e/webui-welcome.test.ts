import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, BROWSER_ENVIRONMENT, buildWebui, launchBrowser, watchErrors, type RunningBrowser } from '../helpers/browser.ts';
import { shippedRoots } from '../helpers/component-roots.ts';
import { useTestApp } from '../helpers/services.ts';

/** The welcome's own closing words: whatever else it says, these mark it. */
const WELCOME_MARK = 'This note is not part of the conversation.';

// Each test loads the avatar page more than once: well over 20 s on a busy two-core machine.
describe('web UI: the chat welcome', { timeout: 90_000 }, () => {
  let browser: RunningBrowser;
  beforeAll(async () => {
    [browser] = await Promise.all([launchBrowser(), buildWebui()]);
  });
  afterAll(async () => browser?.close());
  const subject = useTestApp({ componentRoots: shippedRoots, environment: BROWSER_ENVIRONMENT, listen: true, startInTest: true });
  // Registered after useTestApp, so the window closes before the app does.
  let window: BrowserContext | undefined;
  afterEach(async () => window?.close());

  /** The chat page in a window of its own, its console errors collected. */
  const openChat = async (): Promise<{ page: Page; errors: string[] }> => {
    window = await browser.context();
    const page = await window.newPage();
    const errors = watchErrors(page);
    await page.goto(`http://127.0.0.1:${subject.ports.web}/`);
    return { page, errors };
  };
  const welcomeOf = (page: Page) => page.getByRole('region', { name: 'Welcome' });
  const storedTexts = async () => {
    const { history } = subject.harness.services;
    return (await history.chat.load(history.sessions.resolve().interface_path)).map((message) => message.text);
  };

  it('says that no model is configured and links to the engine switch; back on the chat it says what was chosen', async () => {
    await subject.start();
    const { page, errors } = await openChat();
    const welcome = welcomeOf(page);
    await welcome.getByText('No language model is configured yet').waitFor();
    expect(await welcome.locator('[data-voice="on"]').textContent()).toContain('local');
    await page.screenshot({ path: join(ARTIFACTS, 'webui-welcome-no-model.png') });

    await welcome.getByRole('link', { name: 'Choose a language model' }).click();
    await page.waitForURL(/#\/components$/);
    await page.getByRole('combobox', { name: 'Cortex engine' }).selectOption('manual');
    await page.getByRole('button', { name: 'Switch' }).click();
    await page.getByText('Active engine: manual').waitFor();
    await page.goBack();
    await welcome.getByText('The manual engine is active').waitFor();
    expect(errors).toEqual([]);
  });

  it('goes once a message is sent, is never stored, and stays away from a conversation with messages', async () => {
    await subject.start();
    const { page, errors } = await openChat();
    const welcome = welcomeOf(page);
    await welcome.getByText('No language model is configured yet').waitFor();
    await page.getByLabel('Message').fill('Hello?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('.chat-notice.error', { hasText: 'No language model is configured' }).waitFor();
    expect(await welcome.isHidden()).toBe(true);
    expect(await page.locator('.chat-log').textContent()).not.toContain(WELCOME_MARK);
    expect(await storedTexts()).toEqual(['Hello?']);

    await page.reload();
    await page.locator('.chat-message.user', { hasText: 'Hello?' }).waitFor();
    expect(await welcome.isHidden()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('says that the manual engine answers and the voice is off; the model never sees the welcome', async () => {
    await subject.start({ environment: { CORTEX_ENGINE: 'manual', ACTIVE_VOX_ENGINE: 'disabled' } });
    const { page, errors } = await openChat();
    const welcome = welcomeOf(page);
    await welcome.getByText('The manual engine is active').waitFor();
    expect(await welcome.getByRole('link', { name: 'Operator page' }).getAttribute('href')).toBe('#/operator');
    expect(await welcome.locator('[data-voice="off"]').textContent()).toContain('ACTIVE_VOX_ENGINE');

    await page.getByLabel('Message').fill('Are you there?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('.chat-message.user', { hasText: 'Are you there?' }).waitFor();
    expect(await welcome.isHidden()).toBe(true);
    const pending = async (): Promise<Array<{ id: string; messages: Array<{ role: string; content: string }> }>> =>
      (await subject.app.inject({ method: 'GET', url: '/api/cortex/manual/pending' })).json().pending;
    await expect.poll(async () => (await pending()).length).toBe(1);
    const [prompt] = await pending();
    expect(prompt?.messages.filter((turn) => turn.role !== 'system').map((turn) => turn.content)).toEqual(['User: Are you there?']);
    expect(JSON.stringify(prompt?.messages)).not.toContain(WELCOME_MARK);
    await subject.app.inject({ method: 'POST', url: '/api/cortex/manual/answer', payload: { id: prompt?.id, text: 'I am.' } });
    await page.locator('.chat-message.assistant', { hasText: 'I am.' }).waitFor();
    expect(await storedTexts()).toEqual(['Are you there?', 'I am.']);
    expect(errors).toEqual([]);
  });
});
