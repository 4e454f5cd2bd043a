import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { record } from '../../fixtures/components/record.ts';
import { matrixConnection, startAnimaOnMatrix, startMatrixHomeserver, type MatrixHomeserver } from '../../helpers/matrix-homeserver.ts';
import type { TestServices } from '../../helpers/services.ts';

const PASSWORD = 'correct horse battery staple';

describe('the matrix session: sign-in, the kept tokens, configuration changes', () => {
  let server: MatrixHomeserver;
  let anima: TestServices | undefined;
  let backups: string;
  let bot: string;
  let alice: string;

  beforeEach(async () => {
    record.reset();
    backups = await mkdtemp(join(tmpdir(), 'anima-matrix-backups-'));
    server = await startMatrixHomeserver();
    bot = server.registerUser('anima', { password: PASSWORD });
    alice = server.registerUser('alice');
  });
  afterEach(async () => {
    await anima?.close();
    anima = undefined;
    await server.close();
    await rm(backups, { recursive: true, force: true });
  });

  const start = async (environment: Record<string, string>) => {
    anima = await startAnimaOnMatrix(server, { MATRIX_USER_ID: bot, BACKUPS_DIR: backups, ...environment });
    return anima;
  };
  const logins = () => server.requests.filter((request) => request.method === 'POST' && request.path === '/_matrix/client/v3/login').length;
  const joinedRoom = async () => {
    const id = server.createRoom(alice);
    server.invite(id, alice, bot);
    await server.until(() => (server.membership(id, bot) === 'join' ? true : undefined), 'the join');
    return id;
  };
  const answer = async (roomId: string, body: string) => {
    const at = server.streamPosition;
    server.send(roomId, alice, { msgtype: 'm.text', body });
    return (await server.nextEvent(roomId, bot, at)).content.body;
  };

  it('logs in once: a restart reuses the kept access token and resumes from the sync token, answering only what is new', async () => {
    const first = await start({ MATRIX_PASSWORD: PASSWORD });
    await matrixConnection(first, 'connected');
    const id = await joinedRoom();
    expect(await answer(id, 'before the restart')).toBe('re: alice: before the restart');
    await first.close();

    const file = join(backups, 'matrix', 'session.json');
    const kept = JSON.parse(await readFile(file, 'utf8'));
    expect(kept).toMatchObject({ userId: bot, login: { accessToken: expect.stringMatching(/^syt_/) }, syncToken: expect.stringMatching(/^s\d+$/) });
    expect(JSON.stringify(kept)).not.toContain(PASSWORD);
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    const away = server.streamPosition;
    server.send(id, alice, { msgtype: 'm.text', body: 'while you were away' });
    const second = await start({ MATRIX_PASSWORD: PASSWORD });
    await server.nextEvent(id, bot, away);
    expect(await answer(id, 'after the restart')).toBe('re: alice: after the restart');
    expect(logins()).toBe(1);
    expect(record.prompts.map((prompt) => prompt.at(-1)?.content)).toEqual([
      'alice: before the restart',
      'alice: while you were away',
      'alice: after the restart',
    ]);
    expect(second.services.components.find('matrix')?.status).toBe('loaded');
  });

  it('does not answer the past of a room the first time it syncs', async () => {
    const id = server.createRoom(alice);
    server.invite(id, alice, bot);
    server.join(id, bot);
    server.send(id, alice, { msgtype: 'm.text', body: 'said before Anima ever connected' });
    await matrixConnection(await start({ MATRIX_PASSWORD: PASSWORD }), 'connected');
    expect(await answer(id, 'now')).toBe('re: alice: now');
    expect(record.prompts).toHaveLength(1);
  });

  it('signs in again without a restart when MATRIX_ACCESS_TOKEN changes', async () => {
    const old = server.issueToken(bot);
    const harness = await start({ MATRIX_ACCESS_TOKEN: old });
    await matrixConnection(harness, 'connected');
    const id = await joinedRoom();
    const fresh = server.issueToken(bot);
    server.revokeToken(old);
    await harness.services.config.set('MATRIX_ACCESS_TOKEN', fresh);
    await server.until(() => server.requests.find((request) => request.path.endsWith('/sync') && request.token === fresh), 'a sync with the new token');
    expect(await answer(id, 'still there?')).toBe('re: alice: still there?');
    expect(server.requests.filter((request) => request.path.includes('/send/')).map((request) => request.token)).toEqual([fresh]);
    expect(logins()).toBe(0);
  });

  it('logs in again with the password when the homeserver forgets the kept token', async () => {
    const harness = await start({ MATRIX_PASSWORD: PASSWORD });
    await matrixConnection(harness, 'connected');
    const id = await joinedRoom();
    const kept = server.requests.find((request) => request.path.endsWith('/sync'))?.token ?? '';
    server.revokeToken(kept);
    await server.until(() => (logins() === 2 ? true : undefined), 'a second login');
    expect(await answer(id, 'hello again')).toBe('re: alice: hello again');
  });

  it('shows a refused password as the reason it is not connected, and never crashes', async () => {
    const harness = await start({ MATRIX_PASSWORD: 'wrong' });
    const report = await matrixConnection(harness, 'disconnected');
    expect(report.detail).toBe('sign-in refused: the password login was refused (M_FORBIDDEN: Invalid username or password)');
    expect(harness.services.components.find('matrix')?.status).toBe('loaded');
  });

  it('keeps trying a homeserver it cannot reach, and says so', async () => {
    const closed = await startMatrixHomeserver();
    await closed.close();
    const harness = await startAnimaOnMatrix(closed, { MATRIX_USER_ID: bot, MATRIX_PASSWORD: PASSWORD, BACKUPS_DIR: backups });
    anima = harness;
    const report = await matrixConnection(harness, 'disconnected');
    expect(report.detail).toMatch(new RegExp(`^cannot reach ${closed.baseUrl} \\(.+\\); retrying in 1 s$`));
  });

  it('is FAILED with its missing variables until they are set, then loaded and connected (GET /api/components)', async () => {
    const harness = await start({ MATRIX_USER_ID: '' });
    const app = await buildApp(harness.services);
    const matrix = async () =>
      (await app.inject({ method: 'GET', url: '/api/components' })).json().interfaces.find((entry: { name: string }) => entry.name === 'matrix');
    try {
      expect(await matrix()).toMatchObject({
        status: 'FAILED',
        reason: 'Missing required configuration: MATRIX_USER_ID, MATRIX_PASSWORD or MATRIX_ACCESS_TOKEN',
        interface_id: 'matrix',
        connection: null,
      });
      for (const [key, value] of [
        ['MATRIX_USER_ID', bot],
        ['MATRIX_PASSWORD', PASSWORD],
      ]) {
        expect((await app.inject({ method: 'POST', url: '/api/config', payload: { key, value } })).statusCode).toBe(200);
      }
      await matrixConnection(harness, 'connected');
      expect(await matrix()).toMatchObject({ status: 'loaded', reason: null, connection: { state: 'connected', detail: `as ${bot}` } });
    } finally {
      await app.close();
    }
  });
});
