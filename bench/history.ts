import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection, createPool } from 'mysql2/promise';
import { openDatabase, type DatabaseHandle } from '../src/db/dialect.ts';
import { ChatHistoryRepository } from '../src/db/repositories/chat-history-repository.ts';
import type { DialectName } from '../src/db/schema.ts';
import { ChatHistory } from '../src/history/chat-history.ts';
import { MicrosecondClock, toDatabaseTimestamp } from '../src/history/timestamps.ts';
import { createLogger } from '../src/logging.ts';
import { interleaved } from './lib/interleaved.ts';
import { percentile, type Report } from './lib/report.ts';

/**
 * Chat history: save-with-cleanup throughput and load latency, each against the raw driver doing the
 * bare minimum on the same table in the same run (a single-row insert; the indexed "newest N" SELECT).
 * Both dialects; MySQL on MYSQL_TEST_URL (default mysql://root@127.0.0.1:3306/test) in its own database.
 */

const KEEP = 10;
const PATHS = 50;
const SAVES = { sqlite: 3000, mysql: 2000 } as const;
const LOADS = 5000;
const SELECT_NEWEST =
  'SELECT id, interface_path, sender_name, sender_id, message_text, timestamp FROM chat_history WHERE interface_path = ? ORDER BY timestamp DESC LIMIT ?';
const INSERT = 'INSERT INTO chat_history (interface_path, sender_name, sender_id, message_text, timestamp) VALUES (?, ?, ?, ?, ?)';

interface RawDriver {
  insert(values: unknown[]): Promise<void>;
  select(path: string, limit: number): Promise<unknown[]>;
  close(): Promise<void>;
}

interface Target {
  url: string;
  raw: (handle: DatabaseHandle) => Promise<RawDriver>;
  drop(): Promise<void>;
}

const text = (index: number) => `message ${index}: ${'lorem ipsum dolor sit amet '.repeat(4)}🙂`;
const pathOf = (index: number, prefix: string) => `${prefix}/${index % PATHS}`;

async function sqliteTarget(): Promise<Target> {
  const directory = await mkdtemp(join(tmpdir(), 'anima-bench-'));
  return {
    url: `sqlite:${join(directory, 'bench.sqlite')}`,
    raw: async (handle) => {
      const { sqlite } = handle;
      if (!sqlite) throw new Error('the SQLite handle has no raw driver');
      const insert = sqlite.prepare(INSERT);
      const select = sqlite.prepare(SELECT_NEWEST);
      return { insert: async (values) => void insert.run(...values), select: async (path, limit) => select.all(path, limit), close: async () => {} };
    },
    drop: () => rm(directory, { recursive: true, force: true }),
  };
}

async function mysqlTarget(): Promise<Target> {
  const base = new URL(process.env.MYSQL_TEST_URL ?? 'mysql://root@127.0.0.1:3306/test');
  const name = `bench_history_${process.pid}`;
  const admin = async (statement: string) => {
    const connection = await createConnection({
      host: base.hostname,
      port: Number(base.port || 3306),
      user: decodeURIComponent(base.username || 'root'),
      password: decodeURIComponent(base.password),
    });
    await connection.query(statement);
    await connection.end();
  };
  await admin(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    raw: async () => {
      const pool = createPool({
        host: base.hostname,
        port: Number(base.port || 3306),
        user: decodeURIComponent(base.username || 'root'),
        password: decodeURIComponent(base.password),
        database: name,
        charset: 'utf8mb4',
        dateStrings: true,
        connectionLimit: 1,
      });
      // The same protocol Kysely's MySQL dialect uses (text queries), so the ratio measures our layer.
      return {
        insert: async (values) => void (await pool.query(INSERT, values)),
        select: async (path, limit) => (await pool.query(SELECT_NEWEST, [path, limit]))[0] as unknown[],
        close: () => pool.end(),
      };
    },
    drop: () => admin(`DROP DATABASE IF EXISTS \`${name}\``),
  };
}

async function run(dialect: DialectName, report: Report): Promise<{ saveRatio: number; loadRatio: number }> {
  const target = dialect === 'sqlite' ? await sqliteTarget() : await mysqlTarget();
  const handle = await openDatabase(target.url);
  const raw = await target.raw(handle);
  const repository = new ChatHistoryRepository(handle.db, handle.dialect, handle.sqlite);
  if (!(await repository.prepareFastPaths())) report.progress(`${dialect}: no fast path available; measuring the portable path`);
  const history = new ChatHistory({ repository, keep: () => KEEP, logger: createLogger({ level: 'silent', pretty: false }).logger });
  try {
    const saves = SAVES[dialect];
    const clock = new MicrosecondClock();
    // Warm both paths (statement caches, connections) before measuring.
    for (let index = 0; index < 50; index += 1) {
      await raw.insert([pathOf(index, 'warm-raw'), 'Ann', '7', text(index), toDatabaseTimestamp(clock.now())]);
      await history.save({ interface_path: pathOf(index, 'warm'), message_text: text(index), sender_name: 'Ann', sender_id: '7' });
    }
    report.progress(`${dialect}: ${saves} raw inserts and ${saves} saves with cleanup, alternating, over ${PATHS} conversations`);
    const writes = await interleaved(
      saves,
      (index) => raw.insert([pathOf(index, 'raw'), 'Ann', '7', text(index), toDatabaseTimestamp(clock.now())]),
      (index) => history.save({ interface_path: pathOf(index, 'chat'), message_text: text(index), sender_name: 'Ann', sender_id: '7' }),
    );
    const rawInsert = writes.baseline;
    const save = writes.ours;
    report.figure(`${dialect}.raw_insert_per_s`, rawInsert.perSecond, 'rows/s');
    report.figure(`${dialect}.save_with_cleanup_per_s`, save.perSecond, 'saves/s');
    const saveRatio = save.perSecond / rawInsert.perSecond;
    report.figure(`${dialect}.save_ratio_to_raw_insert`, saveRatio, 'x (target >= 0.5)');

    report.progress(`${dialect}: ${LOADS} raw selects and ${LOADS} loads of the newest ${KEEP}, alternating`);
    const reads = await interleaved(
      LOADS,
      (index) => raw.select(pathOf(index, 'chat'), KEEP),
      (index) => history.load(pathOf(index, 'chat')),
    );
    const rawSelect = reads.baseline;
    const load = reads.ours;
    report.figure(`${dialect}.raw_select_p50`, percentile(rawSelect.samples, 50), 'ms');
    report.figure(`${dialect}.load_p50`, percentile(load.samples, 50), 'ms');
    const rawP99 = percentile(rawSelect.samples, 99);
    const loadP99 = percentile(load.samples, 99);
    report.figure(`${dialect}.raw_select_p99`, rawP99, 'ms');
    report.figure(`${dialect}.load_p99`, loadP99, 'ms');
    const loadRatio = loadP99 / rawP99;
    report.figure(`${dialect}.load_p99_ratio_to_raw_select`, loadRatio, 'x (target <= 2)');
    return { saveRatio, loadRatio };
  } finally {
    await history.stop();
    await raw.close();
    await handle.close();
    await target.drop();
  }
}

export default async function historyBench(report: Report): Promise<void> {
  const sqlite = await run('sqlite', report);
  const mysql = await run('mysql', report);
  report.figure('load_p99_ratio_worst', Math.max(sqlite.loadRatio, mysql.loadRatio), 'x (target <= 2)');
  report.figure('ratio', Math.min(sqlite.saveRatio, mysql.saveRatio), 'x save-with-cleanup / raw insert, worst dialect (target >= 0.5)');
}
