import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../helpers/manual-clock.ts';
import { useTestApp } from '../helpers/services.ts';
import { expireHellos, openSocket, type OpenedSocket } from '../helpers/sockets.ts';

const HELLO_TIMEOUT_MS = 300;

describe('WebSocket hello handshake (WS /logs)', () => {
  const subject = useTestApp({ startInTest: true, listen: true, environment: { WEB_DEBUG: '1' }, helloTimeoutMs: HELLO_TIMEOUT_MS, logLevel: 'info' });
  let sockets: OpenedSocket[] = [];
  let base = '';

  async function start(environment: Record<string, string> = {}, clock?: ManualClock) {
    await subject.start({ environment, ...(clock ? { clock } : {}) });
    base = `ws://127.0.0.1:${subject.ports.web}`;
  }

  async function connect(path = '/logs', headers: Record<string, string> = {}) {
    const opened = await openSocket(`${base}${path}`, headers);
    sockets.push(opened);
    return opened;
  }

  afterEach(() => {
    for (const { socket } of sockets) socket.terminate();
    sockets = [];
  });

  it('admits a loopback client whose hello has no token, then streams log lines', async () => {
    await start();
    const client = await connect();
    client.socket.send(JSON.stringify({ type: 'hello', has_assets: [] }));
    await client.next((message) => (message as { type?: string }).type === 'ready');
    subject.harness.services.logger.info({ marker: 'visible-line' }, 'hello from the test');
    const line = (await client.next((message) => (message as { marker?: string }).marker === 'visible-line')) as { msg: string };
    expect(line.msg).toBe('hello from the test');
    expect(subject.harness.services.gate.openCount()).toBe(1);
  });

  it('sends nothing before the hello, and closes with 4401 when none arrives in time', async () => {
    const clock = new ManualClock();
    await start({}, clock);
    const client = await connect();
    subject.harness.services.logger.info('a line nobody may see yet');
    await expireHellos(subject.harness.services.gate, clock, HELLO_TIMEOUT_MS);
    expect(await client.closed).toBe(4401);
    expect(client.messages).toEqual([]);
  });

  it('closes with 4401 when the first message is not a hello', async () => {
    await start();
    const client = await connect();
    client.socket.send('{"type":"chat","text":"hi"}');
    expect(await client.closed).toBe(4401);
  });

  it('closes with 4401 for an unknown token, even from loopback', async () => {
    await start();
    const client = await connect();
    client.socket.send(JSON.stringify({ type: 'hello', token: 'forged' }));
    expect(await client.closed).toBe(4401);
  });

  it('requires a token from loopback when APP_TRUST_LOOPBACK is false, and accepts a session token or the key', async () => {
    await start({ APP_TRUST_LOOPBACK: 'false', APP_API_KEY: 'k3y' });
    const bare = await connect();
    bare.socket.send(JSON.stringify({ type: 'hello' }));
    expect(await bare.closed).toBe(4401);

    const { token } = subject.harness.services.trust.tokens.issue();
    const withToken = await connect();
    withToken.socket.send(JSON.stringify({ type: 'hello', token }));
    await withToken.next((message) => (message as { type?: string }).type === 'ready');

    const withKey = await connect();
    withKey.socket.send(JSON.stringify({ type: 'hello', token: 'k3y' }));
    await withKey.next((message) => (message as { type?: string }).type === 'ready');

    const keyHeader = await connect('/logs', { 'x-api-key': 'k3y' });
    keyHeader.socket.send(JSON.stringify({ type: 'hello' }));
    await keyHeader.next((message) => (message as { type?: string }).type === 'ready');
    expect(subject.harness.services.gate.openCount()).toBe(3);
  });

  it('does not exist unless WEB_DEBUG is 1', async () => {
    await start({ WEB_DEBUG: '0' });
    await expect(openSocket(`${base}/logs`)).rejects.toThrow(/404/);
  });
});
