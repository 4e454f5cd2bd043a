import { setTimeout as delay } from 'node:timers/promises';
import { Ollama } from 'ollama';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { FIXTURE_SKINS } from '../helpers/body.ts';
import { buildWebui, launchBrowser, type RunningBrowser } from '../helpers/browser.ts';
import { shippedRoots } from '../helpers/component-roots.ts';
import { ManualClock } from '../helpers/manual-clock.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../helpers/openai-server.ts';
import { privateMariaDbAvailable, startPrivateMariaDb, type PrivateMariaDb } from '../helpers/private-mariadb.ts';
import { useTestApp } from '../helpers/services.ts';
import { openSocket, type OpenedSocket } from '../helpers/sockets.ts';

/**
 * Issue 15, fault 1: the MariaDB server goes away (killed) and comes back while messages arrive on the
 * web chat, the compat port and the integration API. A server of the test's own, never the shared one.
 */

type Message = { type: string; [key: string]: unknown };
const ofType = (type: string) => (message: unknown) => (message as Message).type === type;
const replyTo = (text: string) => `Re: ${text}`;

interface Row {
  interface_path: string;
  sender_id: string | null;
  message_text: string;
}

describe.skipIf(!privateMariaDbAvailable)('MariaDB goes away and comes back while messages arrive', () => {
  let fake: FakeOpenAi;
  let database: PrivateMariaDb;
  const clock = new ManualClock(Date.now());
  const subject = useTestApp({
    startInTest: true,
    listen: true,
    compat: true,
    componentRoots: shippedRoots,
    clock,
    environment: { SKINS_DIR: FIXTURE_SKINS, CORTEX_ENGINE: 'openai', OPENAI_MODEL: 'gpt-test', OPENAI_MAX_RETRIES: '0' },
  });
  let window: OpenedSocket;
  let browser: RunningBrowser;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    // Every answer quotes its question: each reply row says which message it answers.
    fake.answerFor = (request) => {
      const asked = request.body.messages?.at(-1)?.content ?? '';
      return { kind: 'reply', text: replyTo(asked.replace(/^[^:]*: /, '')) };
    };
    [database, browser] = await Promise.all([startPrivateMariaDb(), launchBrowser(), buildWebui()]);
  });
  afterAll(async () => {
    window?.socket.terminate();
    await browser?.close();
    await subject.stop();
    await database?.destroy();
    await fake?.close();
  });

  const settled = async () => {
    while (subject.harness.services.chain.pending > 0) await delay(5);
  };
  const history = () => subject.harness.services.history.chat;

  /** One web chat message, answered (its reply, or the chat_error that replaced it). */
  async function webChat(text: string): Promise<string> {
    const count = () => window.messages.filter((m) => ofType('chat_error')(m) || (ofType('chat_message')(m) && (m as Message).role === 'assistant')).length;
    const before = count();
    window.socket.send(JSON.stringify({ type: 'chat', text, id: text }));
    const answer = (await window.next(
      (m) => (ofType('chat_error')(m) || (ofType('chat_message')(m) && (m as Message).role === 'assistant')) && count() > before,
      15_000,
    )) as Message;
    return String(answer.text ?? answer.message);
  }

  async function compatChat(text: string): Promise<string> {
    const client = new Ollama({ host: `http://127.0.0.1:${subject.ports.compat}`, headers: { 'x-anima-conversation': 'outage' } });
    const answer = await client.chat({ model: 'anima', messages: [{ role: 'user', content: text }], stream: false });
    return answer.message.content;
  }

  async function integrationChat(text: string): Promise<{ status: number; outcome?: string }> {
    const response = await subject.app.inject({
      method: 'POST',
      url: '/api/integrations/messages',
      payload: { source: 'sensor', type: 'chat', payload: { text }, metadata: {} },
    });
    return { status: response.statusCode };
  }

  const about = async () => (await subject.app.inject({ method: 'GET', url: '/api/about' })).json().database;
  const notice = (page: Page) => page.locator('.chat-database');

  it('loses no history row, saves none twice, drains the retry queue in order and says so while it is away', async () => {
    await subject.start({ databaseUrl: database.url, environment: { OPENAI_BASE_URL: fake.baseUrl } });
    window = await openSocket(`ws://127.0.0.1:${subject.ports.web}/ws`);
    window.socket.send(JSON.stringify({ type: 'hello', has_assets: [] }));
    await window.next(ofType('chat_history'));
    const page = await (await browser.context()).newPage();
    await page.goto(`http://127.0.0.1:${subject.ports.web}/`);
    await page.getByLabel('Message').waitFor();

    expect(await webChat('web one')).toBe(replyTo('web one'));
    expect(await compatChat('compat one')).toBe(replyTo('compat one'));
    expect((await integrationChat('sensor one')).status).toBe(202);
    await settled();
    expect(await about()).toMatchObject({ dialect: 'mysql', reachable: true, pending_writes: 0 });

    // A crash: no clean shutdown, the pool's connections die with the server.
    await database.stop('SIGKILL');
    expect(await webChat('web two')).toBe(replyTo('web two'));
    expect(await compatChat('compat two')).toBe(replyTo('compat two'));
    expect((await integrationChat('sensor two')).status).toBe(202);
    expect(await webChat('web three')).toBe(replyTo('web three'));
    await settled();
    expect(history().pendingWrites).toBeGreaterThan(0);
    expect(await about()).toMatchObject({ reachable: false, pending_writes: history().pendingWrites });
    expect(await window.next((m) => ofType('database_status')(m) && (m as Message).reachable === false)).toMatchObject({ reachable: false });
    await notice(page).waitFor({ state: 'visible' });
    expect(await notice(page).textContent()).toMatch(/^The database is unreachable: messages are kept \(\d+ waiting\) and saved when it returns\.$/);

    await database.start();
    // The retry queue's next attempt, on the clock: at most its longest backoff away.
    clock.advance(30_000);
    await vi.waitFor(() => expect([history().pendingWrites, subject.harness.services.integrations.pendingOutbox]).toEqual([0, 0]), {
      timeout: 15_000,
      interval: 20,
    });
    expect(await about()).toMatchObject({ reachable: true, pending_writes: 0 });
    await window.next((m) => ofType('database_status')(m) && (m as Message).reachable === true);
    await notice(page).waitFor({ state: 'hidden' });

    // In the order the rows were written: the held ones after the earlier ones, in the order they arrived.
    const rows = await database.query<Row[]>('SELECT interface_path, sender_id, message_text FROM chat_history ORDER BY id');
    const conversation = (prefix: string) =>
      rows.filter((row) => row.interface_path.startsWith(prefix)).map((row) => `${row.sender_id === 'self' ? 'self' : 'user'}: ${row.message_text}`);
    expect(conversation('webui/')).toEqual([
      'user: web one',
      `self: ${replyTo('web one')}`,
      'user: web two',
      `self: ${replyTo('web two')}`,
      'user: web three',
      `self: ${replyTo('web three')}`,
    ]);
    expect(conversation('compat/')).toEqual(['user: compat one', `self: ${replyTo('compat one')}`, 'user: compat two', `self: ${replyTo('compat two')}`]);
    expect(conversation('integration/')).toEqual(['user: sensor one', `self: ${replyTo('sensor one')}`, 'user: sensor two', `self: ${replyTo('sensor two')}`]);
    // The integration's replies, held while the database was away, reach its outbox once, in order.
    const outbox = await subject.harness.services.integrations.takeOutbox('sensor');
    expect(outbox.map((message) => message.payload.text)).toEqual([replyTo('sensor one'), replyTo('sensor two')]);
  });
});
