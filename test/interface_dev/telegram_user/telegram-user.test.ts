import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/body/clock.ts';
import { enableDevComponents } from '../../../src/components/dev-flag.ts';
import { shippedRoots } from '../../helpers/component-roots.ts';
import { ManualClock } from '../../helpers/manual-clock.ts';
import { type FakeOpenAi, gate, startFakeOpenAi } from '../../helpers/openai-server.ts';
import { useTestApp } from '../../helpers/services.ts';
import { madeClients } from '../../helpers/telegram-user-client.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * MTProto cannot be served faithfully by a local server (encrypted sessions with Telegram's data
 * centres), so this suite loads the user-account interface's own definition with a stand-in client at
 * its seam (`UserAccountClient`); everything else (registry, gating, chain, delivery) is real. The
 * GramJS client itself is exercised only against Telegram.
 */
describe('the Telegram user-account development interface, through its client seam', () => {
  let seamRoot: string;
  let model: FakeOpenAi;
  beforeAll(async () => {
    seamRoot = await mkdtemp(join(tmpdir(), 'anima-telegram-user-'));
    await mkdir(join(seamRoot, 'telegram_user'));
    await writeFile(
      join(seamRoot, 'telegram_user', 'index.ts'),
      [
        `import { userAccountInterface } from '${ROOT}interface_dev/telegram_user/definition.ts';`,
        `import { standInClient } from '${ROOT}test/helpers/telegram-user-client.ts';`,
        'export default userAccountInterface(standInClient);',
      ].join('\n'),
    );
  });
  afterAll(() => rm(seamRoot, { recursive: true, force: true }));
  beforeEach(async () => {
    model = await startFakeOpenAi();
    madeClients.length = 0;
    enableDevComponents(true);
  });
  afterEach(async () => {
    enableDevComponents(false);
    await model.close();
  });
  const test = useTestApp({ startInTest: true });
  const launch = (environment: Record<string, string>, interfaceDev = seamRoot, clock?: Clock) =>
    test.start({
      ...(clock ? { clock } : {}),
      environment: { CORTEX_ENGINE: 'openai', OPENAI_BASE_URL: model.baseUrl, ACTIVE_VOX_ENGINE: 'disabled', ...environment },
      componentRoots: { cortex: shippedRoots.cortex, interfaceDev },
    });
  const entry = async () => {
    const response = await test.app.inject({ method: 'GET', url: '/api/components' });
    return (response.json().interfaces as Array<{ name: string; status: string; reason?: string; dev: boolean; connection?: unknown }>).find(
      (item) => item.name === 'telegram_user',
    );
  };
  const settings = { TELEGRAM_API_ID: '12345', TELEGRAM_API_HASH: '0123456789abcdef0123456789abcdef', TELEGRAM_SESSION: '1BVtsOK...' };

  it('the shipped component is FAILED, in development, until its three variables are set', async () => {
    await launch({ TELEGRAM_API_ID: '12345' }, shippedRoots.interfaceDev);
    expect(await entry()).toMatchObject({
      status: 'FAILED',
      dev: true,
      reason: 'Missing required configuration: TELEGRAM_API_HASH, TELEGRAM_SESSION',
    });
  });

  it('connects with the session, answers a private message in that chat, typing meanwhile, and disconnects when stopped', async () => {
    const clock = new ManualClock();
    await launch(settings, seamRoot, clock);
    await expect.poll(entry).toMatchObject({ status: 'loaded', dev: true, connection: { state: 'connected', detail: 'Anima Account' } });
    const client = madeClients.at(-1);
    if (!client) throw new Error('no client was made');
    expect(client.settings).toEqual({ apiId: 12345, apiHash: settings.TELEGRAM_API_HASH, session: settings.TELEGRAM_SESSION });

    const answer = gate();
    model.script({ kind: 'reply', text: 'Hi Sam, nice to hear from you.', hold: { at: 0, release: answer.release } });
    client.receive({ peerId: '777000111', senderName: 'Sam', text: 'hello there' });
    await expect.poll(() => model.requests.length).toBe(1);
    // No answer within a second on the clock: the chat shows "typing…" until it comes.
    clock.advance(1000);
    await expect.poll(() => client.typing).toEqual(['777000111']);
    answer.open();
    await client.waitForSent(1);
    expect(client.sent).toEqual([{ peerId: '777000111', text: 'Hi Sam, nice to hear from you.' }]);
    expect(String(model.requests[0]?.body.messages?.at(-1)?.content)).toBe('Sam: hello there');
    const history = async () => (await test.harness.services.history.chat.load('telegram_user/777000111')).map((item) => item.text);
    await expect.poll(history).toEqual(['hello there', 'Hi Sam, nice to hear from you.']);

    await test.stop();
    expect(client.connected).toBe(false);
  });

  it('shows a refused session as disconnected with the way to make a new one', async () => {
    await launch({ ...settings, TELEGRAM_SESSION: 'refused' });
    await expect
      .poll(entry)
      .toMatchObject({ status: 'loaded', connection: { state: 'disconnected', detail: expect.stringContaining('npm run telegram:login') } });
  });
});
