import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { createConnection } from 'mysql2/promise';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../../src/db/dialect.ts';
import { ChatHistoryRepository } from '../../../src/db/repositories/chat-history-repository.ts';
import type { DialectName } from '../../../src/db/schema.ts';
import { ChatHistory } from '../../../src/history/chat-history.ts';
import { fromInterfacePath, toInterfacePath } from '../../../src/history/interface-path.ts';
import { createLogger } from '../../../src/logging.ts';
import { describeEachDialect, freshDatabase, type TestDatabase } from '../../helpers/dialects.ts';

/** Rows as the older layout held them: [chat_id, interface, thread_id, sender_name, sender_id, message_text, timestamp]. */
type LegacyRow = [string | number, string, string | number | null, string | null, string | null, string, string | number];

const LEGACY_ROWS: LegacyRow[] = [
  ['-100123', 'telegram_bot', null, 'Ann', '7', 'first', '2024-03-01 10:00:00'],
  ['-100123', 'telegram_bot', null, 'self', 'self', 'same second, no loss', '2024-03-01 10:00:00'],
  ['-100123', 'telegram_bot', '55', 'Bob', '8', 'in a thread 🧵', '2024-03-01 10:00:01'],
  ['-100123', 'telegram_bot', '', 'Ann', '7', 'empty thread means none', '2024-03-01 10:00:02'],
  [998877, 'discord_bot', 42, 'Cy', '9', 'numeric ids', '2024-03-01 11:00:00.250000'],
];

const SQLITE_LEGACY = `CREATE TABLE chat_history (id INTEGER PRIMARY KEY AUTOINCREMENT, chat_id TEXT NOT NULL, interface TEXT NOT NULL,
  thread_id TEXT, sender_name TEXT, sender_id TEXT, message_text TEXT NOT NULL, timestamp TEXT NOT NULL)`;
const MYSQL_LEGACY = `CREATE TABLE chat_history (id INT AUTO_INCREMENT PRIMARY KEY, chat_id VARCHAR(255) NOT NULL, interface VARCHAR(100) NOT NULL,
  thread_id VARCHAR(255) NULL, sender_name VARCHAR(255), sender_id VARCHAR(255), message_text TEXT NOT NULL,
  timestamp DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`;
const INSERT = 'INSERT INTO chat_history (id, chat_id, interface, thread_id, sender_name, sender_id, message_text, timestamp) VALUES (?, ?, ?, ?, ?, ?, ?, ?)';

/** Legacy ids with gaps, so the test sees they are kept. */
const legacyId = (index: number) => 10 + index * 3;

async function seedLegacy(dialect: DialectName, url: string, extra: LegacyRow[] = []): Promise<void> {
  const rows = [...LEGACY_ROWS, ...extra];
  if (dialect === 'sqlite') {
    const sqlite = new SqliteDatabase(url.slice('sqlite:'.length));
    sqlite.exec(SQLITE_LEGACY);
    const insert = sqlite.prepare(INSERT);
    sqlite.transaction(() => {
      for (const [index, row] of rows.entries()) insert.run(legacyId(index), ...row.map((value) => (typeof value === 'number' ? String(value) : value)));
    })();
    sqlite.close();
    return;
  }
  const connection = await createConnection({ uri: url, charset: 'utf8mb4' });
  await connection.query(MYSQL_LEGACY);
  await connection.query(`${INSERT.split(' VALUES ')[0]} VALUES ?`, [rows.map((row, index) => [legacyId(index), ...row])]);
  await connection.end();
}

describeEachDialect('legacy chat_history migration', (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle | undefined;
  let directory: string;

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'anima-legacy-'));
    database = dialect === 'sqlite' ? { dialect, url: `sqlite:${join(directory, 'legacy.sqlite')}`, drop: async () => {} } : await freshDatabase(dialect);
  });
  afterEach(async () => {
    await handle?.close();
    handle = undefined;
    await database.drop();
    await rm(directory, { recursive: true, force: true });
  });

  it('converts every row to interface_path at start, keeping ids and order', async () => {
    await seedLegacy(dialect, database.url);
    handle = await openDatabase(database.url);
    const tables = (await handle.db.introspection.getTables()).map((table) => table.name);
    expect(tables).toContain('chat_history');
    expect(tables).not.toContain('chat_history_legacy');
    const rows = await handle.db.selectFrom('chat_history').selectAll().orderBy('id').execute();
    expect(rows.map((row) => [Number(row.id), row.interface_path, row.message_text])).toEqual([
      [10, 'telegram_bot/-100123', 'first'],
      [13, 'telegram_bot/-100123', 'same second, no loss'],
      [16, 'telegram_bot/-100123/55', 'in a thread 🧵'],
      [19, 'telegram_bot/-100123', 'empty thread means none'],
      [22, 'discord_bot/998877/42', 'numeric ids'],
    ]);
    const history = new ChatHistory({
      repository: new ChatHistoryRepository(handle.db, handle.dialect, handle.sqlite),
      keep: () => 10,
      logger: createLogger({ level: 'silent', pretty: false }).logger,
    });
    const main = await history.load(toInterfacePath('telegram_bot', -100123));
    expect(main.map((message) => [message.text, message.timestamp, message.role])).toEqual([
      ['first', '2024-03-01T10:00:00.000000Z', 'user'],
      ['same second, no loss', '2024-03-01T10:00:00.000001Z', 'assistant'],
      ['empty thread means none', '2024-03-01T10:00:02.000000Z', 'user'],
    ]);
    // A legacy MySQL DATETIME held whole seconds; SQLite kept the text as written.
    const fraction = dialect === 'mysql' ? '000000' : '250000';
    expect((await history.load(toInterfacePath('discord_bot', 998877, 42)))[0]?.timestamp).toBe(`2024-03-01T11:00:00.${fraction}Z`);
    expect(fromInterfacePath('telegram_bot/-100123/55')).toEqual({ interface: 'telegram_bot', chat_id: '-100123', thread_id: '55' });
    // New saves work against the converted table, and its auto-increment continues past the legacy ids.
    await history.save({ interface_path: 'telegram_bot/-100123', message_text: 'after migration' });
    const latest = await handle.db.selectFrom('chat_history').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(Number(latest.id)).toBeGreaterThan(22);
  });

  it('converts a larger table in batches without losing a row and is not repeated at the next start', async () => {
    const extra: LegacyRow[] = Array.from({ length: 700 }, (_, index) => [
      'c1',
      'matrix',
      index % 2 === 0 ? null : 't',
      'Dee',
      '3',
      `bulk ${index}`,
      '2024-04-01 00:00:00',
    ]);
    await seedLegacy(dialect, database.url, extra);
    handle = await openDatabase(database.url);
    // The database open now: the count runs again after a reopen.
    const count = async () => {
      if (!handle) throw new Error('no database is open');
      return Number(
        (
          await handle.db
            .selectFrom('chat_history')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    };
    expect(await count()).toBe(LEGACY_ROWS.length + extra.length);
    const sameSecond = await handle.db.selectFrom('chat_history').select('timestamp').where('interface_path', '=', 'matrix/c1/t').execute();
    expect(new Set(sameSecond.map((row) => row.timestamp)).size).toBe(350);
    await handle.close();
    handle = await openDatabase(database.url);
    expect(await count()).toBe(LEGACY_ROWS.length + extra.length);
  });
});
