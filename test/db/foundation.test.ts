import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { createConnection } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { backupDatabase } from '../../src/db/backup.ts';
import { openDatabase, parseDatabaseUrl } from '../../src/db/dialect.ts';
import { ActivityLogRepository } from '../../src/db/repositories/activity-log.ts';
import { ConfigEntriesRepository } from '../../src/db/repositories/config-entries.ts';
import { createLogger } from '../../src/logging.ts';
import { describeEachDialect, freshDatabase, useFreshDatabase } from '../helpers/dialects.ts';

const { logger } = createLogger({ level: 'silent', pretty: false });

describe('DATABASE_URL', () => {
  it('resolves sqlite paths against the working directory', () => {
    expect(parseDatabaseUrl('sqlite:backups/anima.sqlite', '/srv/anima')).toEqual({ dialect: 'sqlite', path: '/srv/anima/backups/anima.sqlite' });
    expect(parseDatabaseUrl('sqlite:/var/lib/anima.sqlite')).toEqual({ dialect: 'sqlite', path: '/var/lib/anima.sqlite' });
    expect(parseDatabaseUrl('sqlite::memory:')).toEqual({ dialect: 'sqlite', path: ':memory:' });
  });

  it('reads the database name from a mysql URL', () => {
    const target = parseDatabaseUrl('mysql://root:pw@127.0.0.1:3306/anima');
    expect(target).toMatchObject({ dialect: 'mysql', database: 'anima' });
  });

  it('explains what is wrong with an unsupported URL', () => {
    expect(() => parseDatabaseUrl('postgres://x/y')).toThrow(/sqlite: or mysql:\/\//);
    expect(() => parseDatabaseUrl('mysql://root@host/bad-name;drop')).toThrow(/letters, digits and underscores/);
    expect(() => parseDatabaseUrl('sqlite:')).toThrow(/file path/);
  });
});

describeEachDialect('foundation tables', (dialect) => {
  const fresh = useFreshDatabase(dialect);

  it('creates the tables at start and records the migrations', async () => {
    const tables = (await fresh.handle.db.introspection.getTables()).map((table) => table.name);
    expect(tables).toEqual(expect.arrayContaining(['config_entries', 'activity_log']));
    const applied = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(fresh.handle.db);
    expect(applied.rows.map((row) => row.name)).toContain('0001-config-entries');
  });

  it('saves, overwrites, loads and removes configuration entries', async () => {
    const entries = new ConfigEntriesRepository(fresh.handle.db, fresh.handle.dialect);
    await entries.save('CHAT_HISTORY', '20');
    await entries.save('CHAT_HISTORY', '25');
    await entries.save('PROMPT_OVERRIDE', 'Sei un gatto 🐈 — "quoted"');
    expect(await entries.load()).toEqual({ CHAT_HISTORY: '25', PROMPT_OVERRIDE: 'Sei un gatto 🐈 — "quoted"' });
    await entries.remove('CHAT_HISTORY');
    expect(await entries.load()).toEqual({ PROMPT_OVERRIDE: 'Sei un gatto 🐈 — "quoted"' });
  });

  it('lists activity newest first, filtered by kind and time', async () => {
    const activity = new ActivityLogRepository(fresh.handle.db);
    // A row's time is the system clock's: set by hand, the cut falls a second after the first row and before the next.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2025, 0, 1, 12) });
    let cut: string;
    try {
      await activity.add('config', 'first', { key: 'A' });
      cut = new Date(Date.now() + 1000).toISOString();
      vi.setSystemTime(Date.now() + 2000);
      await activity.add('system', 'second');
      await activity.add('config', 'third', { key: 'C' });
    } finally {
      vi.useRealTimers();
    }
    expect((await activity.list({ limit: 10 })).map((entry) => entry.message)).toEqual(['third', 'second', 'first']);
    expect((await activity.list({ limit: 10, kind: 'config' })).map((entry) => entry.data)).toEqual([{ key: 'C' }, { key: 'A' }]);
    expect((await activity.list({ limit: 10, since: cut })).map((entry) => entry.message)).toEqual(['third', 'second']);
    expect(await activity.list({ limit: 1 })).toHaveLength(1);
  });

  it('keeps the data and runs no migration twice when the database is opened again', async () => {
    await new ConfigEntriesRepository(fresh.handle.db, fresh.handle.dialect).save('A_KEY', 'x');
    const again = await openDatabase(fresh.url);
    const applied = await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(again.db);
    expect(new Set(applied.rows.map((row) => row.name)).size).toBe(applied.rows.length);
    expect(await new ConfigEntriesRepository(again.db, again.dialect).load()).toEqual({ A_KEY: 'x' });
    await again.close();
  });
});

describe('database backup [sqlite]', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'anima-backup-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('writes a consistent copy with the online backup API', async () => {
    const handle = await openDatabase(`sqlite:${join(folder, 'live.sqlite')}`);
    await new ConfigEntriesRepository(handle.db, handle.dialect).save('OPENAI_MODEL', 'copied 🐈');
    const name = await backupDatabase(handle, join(folder, 'db'), logger);
    await handle.close();
    expect(name).toMatch(/^anima-.*\.sqlite$/);
    const copy = new SqliteDatabase(join(folder, 'db', name), { readonly: true });
    expect(copy.prepare('SELECT value FROM config_entries WHERE name = ?').get('OPENAI_MODEL')).toEqual({ value: 'copied 🐈' });
    copy.close();
  });
});

const mysqlUrl = process.env.MYSQL_TEST_URL;
(mysqlUrl ? describe : describe.skip)('MariaDB specifics [mysql]', () => {
  it('creates the database named in DATABASE_URL when it does not exist', async () => {
    const name = `test_created_${Date.now().toString(36)}`;
    const url = new URL(mysqlUrl ?? '');
    url.pathname = `/${name}`;
    const handle = await openDatabase(url.toString());
    await handle.close();
    const admin = await createConnection({ host: url.hostname, port: Number(url.port || 3306), user: url.username || 'root', password: url.password });
    const [rows] = await admin.query('SHOW DATABASES LIKE ?', [name]);
    await admin.query(`DROP DATABASE \`${name}\``);
    await admin.end();
    expect(rows).toHaveLength(1);
  });

  it('writes a SQL dump that restores the same rows into an empty database', async () => {
    const source = await freshDatabase('mysql');
    const target = await freshDatabase('mysql');
    const folder = await mkdtemp(join(tmpdir(), 'anima-dump-'));
    try {
      const handle = await openDatabase(source.url);
      const entries = new ConfigEntriesRepository(handle.db, handle.dialect);
      await entries.save('PROMPT_OVERRIDE', 'it\'s a "test" \\ with emoji 🐈 and\nnewline');
      await new ActivityLogRepository(handle.db).add('system', 'dumped', { n: 1 });
      const name = await backupDatabase(handle, folder, logger);
      await handle.close();
      expect(name).toMatch(/\.sql$/);
      const dump = await readFile(join(folder, name), 'utf8');
      const url = new URL(target.url);
      const restore = await createConnection({
        host: url.hostname,
        port: Number(url.port || 3306),
        user: url.username || 'root',
        password: url.password,
        database: url.pathname.slice(1),
        multipleStatements: true,
        charset: 'utf8mb4',
      });
      await restore.query(dump);
      await restore.end();
      const restored = await openDatabase(target.url);
      expect(await new ConfigEntriesRepository(restored.db, restored.dialect).load()).toEqual({
        PROMPT_OVERRIDE: 'it\'s a "test" \\ with emoji 🐈 and\nnewline',
      });
      expect((await new ActivityLogRepository(restored.db).list({ limit: 5 })).map((entry) => entry.message)).toEqual(['dumped']);
      await restored.close();
    } finally {
      await source.drop();
      await target.drop();
      await rm(folder, { recursive: true, force: true });
    }
  });
});
