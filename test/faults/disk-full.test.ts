import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shippedRoots } from '../helpers/component-roots.ts';
import { ManualClock } from '../helpers/manual-clock.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../helpers/openai-server.ts';
import { useTestApp } from '../helpers/services.ts';
import { canMountTmpfs, mountSmallDisk, type SmallDisk } from '../helpers/small-disk.ts';
import { openSocket, type OpenedSocket } from '../helpers/sockets.ts';
import { binaryFbx, copyFixtureSkins } from '../helpers/upload-files.ts';

/**
 * Issue 15, fault 4: the disk fills up under VOX_OUTPUT_DIR, the uploads (`skins/temp`) and the SQLite
 * database's folder, each a small tmpfs of the test's own, under the real services listening on a port
 * with the shipped web chat. Needs root to mount them; skipped otherwise.
 */
const mountable = await canMountTmpfs(join(tmpdir(), `anima-mount-probe-${process.pid}`));
type Frame = { type: string; role?: string; text?: string; reachable?: boolean };
type Line = { msg: string; err?: { code?: string }; detail?: string };
const ofType = (type: string) => (message: unknown) => (message as Frame).type === type;

describe.skipIf(!mountable)('the disk is full', () => {
  let skins: string;
  /** The speech and database folders. */
  let data: string;
  let disks: SmallDisk[] = [];
  const lines: Line[] = [];
  let model: FakeOpenAi;
  const clock = new ManualClock();
  const subject = useTestApp({
    startInTest: true,
    listen: true,
    clock,
    componentRoots: { interface: shippedRoots.interface, cortex: shippedRoots.cortex },
  });

  beforeAll(async () => {
    model = await startFakeOpenAi();
    model.answerFor = () => ({ kind: 'reply', text: 'A spoken answer.' });
    skins = await copyFixtureSkins();
    data = await mkdtemp(join(tmpdir(), 'anima-disk-'));
    disks = [
      await mountSmallDisk(join(skins, 'temp'), 2 * 1_048_576),
      await mountSmallDisk(join(data, 'tts'), 2 * 1_048_576),
      await mountSmallDisk(join(data, 'db'), 8 * 1_048_576),
    ];
  });

  afterAll(async () => {
    await model?.close();
    for (const disk of disks) await disk.unmount();
    for (const folder of [skins, data]) if (folder) await rm(folder, { recursive: true, force: true });
  });

  let window: OpenedSocket;
  const upload = () => {
    const form = new FormData();
    form.append('state', 'think');
    form.append('file', new Blob([binaryFbx()]), 'wave.fbx');
    const token = subject.harness.services.trust.tokens.issue().token;
    return fetch(`http://127.0.0.1:${subject.ports.web}/api/animations/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  };
  /** One web chat message and its answer. */
  const chat = async (text: string) => {
    const before = window.messages.length;
    window.socket.send(JSON.stringify({ type: 'chat', text, id: text }));
    return (await window.next(
      (message) => ofType('chat_message')(message) && (message as Frame).role === 'assistant' && window.messages.indexOf(message) >= before,
      30_000,
    )) as Frame;
  };
  const logged = (predicate: (line: Line) => boolean) => expect.poll(() => lines.some(predicate), { timeout: 20_000 }).toBe(true);

  it('refuses uploads with 507, answers the chat in text, holds the history on SQLITE_FULL, resumes once space returns', { timeout: 120_000 }, async () => {
    const destination = new PassThrough();
    destination.on('data', (chunk: Buffer) =>
      lines.push(
        ...chunk
          .toString('utf8')
          .split('\n')
          .filter(Boolean)
          .map((text) => JSON.parse(text) as Line),
      ),
    );
    await subject.start({
      databaseUrl: `sqlite:${join(data, 'db', 'anima.sqlite')}`,
      environment: { SKINS_DIR: skins, VOX_OUTPUT_DIR: join(data, 'tts'), CORTEX_ENGINE: 'openai', OPENAI_BASE_URL: model.baseUrl, OPENAI_MODEL: 'gpt-test' },
      logLevel: 'debug',
      logDestination: destination,
    });
    window = await openSocket(`ws://127.0.0.1:${subject.ports.web}/ws`);
    window.socket.send(JSON.stringify({ type: 'hello', has_assets: [] }));
    await window.next(ofType('chat_history'), 20_000);

    // An empty write-ahead log: the next write must grow a file, so SQLite meets the full disk itself.
    subject.harness.services.database.sqlite?.pragma('wal_checkpoint(TRUNCATE)');
    for (const disk of disks) await disk.fill();
    const refused = await upload();
    expect(refused.status).toBe(507);
    expect(await refused.json()).toEqual({ error: { code: 'insufficient_storage', message: expect.stringMatching(/disk space/) } });
    await logged((line) => line.msg === 'request failed' && JSON.stringify(line.err).includes('ENOSPC'));
    expect((await readdir(join(skins, 'temp', '.incoming'))).filter((name) => name !== '.filler')).toEqual([]);

    const answer = await chat('while the disk is full');
    expect(answer.text).toBe('A spoken answer.');
    // The history could not be written: SQLITE_FULL, said in the log and to the window, the rows held for a retry.
    await logged((line) => line.msg === 'chat history database unreachable; the message is queued for retry' && line.err?.code === 'SQLITE_FULL');
    await window.next((message) => ofType('database_status')(message) && (message as Frame).reachable === false);
    await expect.poll(() => subject.harness.services.history.chat.databaseStatus).toMatchObject({ reachable: false, pending_writes: 2 });
    // Speech for the web chat: it fails for want of space, says why in the log, and falls back to text.
    const spoken = await subject.harness.services.audio.vox.speak({ text: 'Are you there?', interfacePath: 'webui/disk', textFallback: 'caller' });
    expect(spoken).toMatchObject({ status: 'error', fallback_text: true, detail: expect.stringContaining('ENOSPC') });
    await logged((line) => line.msg === 'speech generation failed' && String(line.detail).includes('ENOSPC'));
    expect(await readdir(join(data, 'tts'))).toEqual(['.filler']);

    for (const disk of disks) await disk.free();
    expect((await upload()).status).toBe(201);
    // The retry queue's next attempt, on the clock: at most its longest backoff away. The held rows are written, in order.
    clock.advance(30_000);
    await window.next((message) => ofType('database_status')(message) && (message as Frame).reachable === true, 20_000);
    expect(subject.harness.services.history.chat.databaseStatus).toMatchObject({ reachable: true, pending_writes: 0 });
    const history = (await subject.app.inject({ method: 'GET', url: '/api/history/chat?limit=100' })).json() as { messages: Array<{ text: string }> };
    expect(history.messages.map((message) => message.text).slice(-2)).toEqual(['while the disk is full', 'A spoken answer.']);
    await chat('with space again');
    expect(await subject.harness.services.audio.vox.speak({ text: 'Here again.', interfacePath: 'webui/disk', textFallback: 'caller' })).toMatchObject({
      status: 'success',
    });
    window.socket.close();
  });
});
