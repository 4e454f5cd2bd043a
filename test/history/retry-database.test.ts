import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/dialect.ts';
import { ChatHistoryRepository } from '../../src/db/repositories/chat-history-repository.ts';
import { ChatHistory } from '../../src/history/chat-history.ts';
import { createLogger } from '../../src/logging.ts';
import { freshDatabase, type TestDatabase } from '../helpers/dialects.ts';
import { ManualClock } from '../helpers/manual-clock.ts';

const retry = { capacity: 100, initialDelayMs: 20, maxDelayMs: 100 };

function capturedLogger() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger({ level: 'info', pretty: false, destination }).logger, lines };
}

/** The production wiring: prepared statements on SQLite, the save procedure on MySQL. */
async function historyOn(handle: DatabaseHandle) {
  const { logger, lines } = capturedLogger();
  const repository = new ChatHistoryRepository(handle.db, handle.dialect, handle.sqlite);
  expect(await repository.prepareFastPaths()).toBe(true);
  const clock = new ManualClock();
  const history = new ChatHistory({ repository, keep: () => 10, logger, retry, timers: clock });
  /** Moves the clock to the next backoff step and waits for that retry to finish. */
  const retryDue = async () => {
    const due = clock.nextDue();
    if (due === undefined) throw new Error('no retry is scheduled');
    clock.advance(due - clock.now());
    await history.retryNow();
  };
  return { history, lines, retryDue };
}

describe('a save while the database is unreachable [sqlite]', () => {
  let directory: string;
  let handle: DatabaseHandle;

  afterEach(async () => {
    await handle.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('is queued while another process holds the database locked, then written', async () => {
    directory = await mkdtemp(join(tmpdir(), 'anima-retry-'));
    const file = join(directory, 'locked.sqlite');
    handle = await openDatabase(`sqlite:${file}`);
    handle.sqlite?.pragma('busy_timeout = 10');
    const { history, lines, retryDue } = await historyOn(handle);
    const other = new SqliteDatabase(file);
    other.exec('BEGIN EXCLUSIVE');
    const result = await history.save({ interface_path: 'webui/s', message_text: 'kept while locked' });
    expect(result.status).toBe('queued');
    expect(history.pendingWrites).toBe(1);
    expect(lines.join('')).toMatch(/queued for retry/);
    other.exec('COMMIT');
    other.close();
    await retryDue();
    expect(history.pendingWrites).toBe(0);
    expect((await history.load('webui/s')).map((message) => message.text)).toEqual(['kept while locked']);
    expect(lines.join('')).toMatch(/queued messages written/);
    await history.stop();
  });

  it('queues a correction of an own message behind its save, and applies it in order', async () => {
    directory = await mkdtemp(join(tmpdir(), 'anima-retry-'));
    const file = join(directory, 'locked.sqlite');
    handle = await openDatabase(`sqlite:${file}`);
    handle.sqlite?.pragma('busy_timeout = 10');
    const { history, retryDue } = await historyOn(handle);
    const other = new SqliteDatabase(file);
    other.exec('BEGIN EXCLUSIVE');
    expect((await history.saveOwn('webui/s', 'One. Two. Three.')).status).toBe('queued');
    expect(await history.editOwn('webui/s', 'One. Two. Three.', 'One. [cut]')).toBe(true);
    expect(history.pendingWrites).toBe(2);
    other.exec('COMMIT');
    other.close();
    await retryDue();
    expect(history.pendingWrites).toBe(0);
    expect((await history.load('webui/s')).map((message) => message.text)).toEqual(['One. [cut]']);
    // Nothing of the path reads the original any more.
    expect(await history.editOwn('webui/s', 'One. Two. Three.', 'again')).toBe(false);
    await history.stop();
  });
});

/** A TCP hop to MariaDB that the test can take down and bring back, like a database host restarting. */
class FlakyProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async up(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async down(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }
}

describe.skipIf(!process.env.MYSQL_TEST_URL)('a save while the database is unreachable [mysql]', () => {
  let database: TestDatabase;
  let proxy: FlakyProxy;
  let handle: DatabaseHandle;

  afterEach(async () => {
    await proxy.down();
    await handle.close();
    await database.drop();
  });

  it('is queued while the server cannot be reached, then written when it returns', async () => {
    database = await freshDatabase('mysql');
    const url = new URL(database.url);
    proxy = new FlakyProxy({ host: url.hostname, port: Number(url.port || 3306) });
    await proxy.up();
    url.host = `127.0.0.1:${proxy.port}`;
    handle = await openDatabase(url.toString());
    const { history, lines, retryDue } = await historyOn(handle);
    expect((await history.save({ interface_path: 'webui/s', message_text: 'before', timestamp: '2024-01-01T00:00:01Z' })).status).toBe('saved');

    await proxy.down();
    const during = await history.save({ interface_path: 'webui/s', message_text: 'during 🔌', timestamp: '2024-01-01T00:00:02Z' });
    const next = await history.save({ interface_path: 'webui/s', message_text: 'still during', timestamp: '2024-01-01T00:00:03Z' });
    expect([during.status, next.status]).toEqual(['queued', 'queued']);
    expect(lines.join('')).toMatch(/queued for retry/);
    await retryDue();
    expect(history.pendingWrites).toBe(2);
    expect(lines.join('')).toMatch(/still unreachable/);

    await proxy.up();
    // The pool may still hand out a connection that died with the proxy: that attempt fails and backs off too.
    for (let attempt = 0; attempt < 3 && history.pendingWrites > 0; attempt += 1) await retryDue();
    expect(history.pendingWrites).toBe(0);
    expect((await history.load('webui/s')).map((message) => message.text)).toEqual(['before', 'during 🔌', 'still during']);
    await history.stop();
  });
});
