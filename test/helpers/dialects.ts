import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { afterAll, afterEach, beforeAll, beforeEach, describe } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/dialect.ts';
import type { DialectName } from '../../src/db/schema.ts';

/** A fresh, empty database of one dialect; `drop` removes it. */
export interface TestDatabase {
  dialect: DialectName;
  url: string;
  drop(): Promise<void>;
}

const mysqlUrl = process.env.MYSQL_TEST_URL;
const mysqlRequired = process.env.ANIMA_REQUIRE_MYSQL === '1';

if (!mysqlUrl && mysqlRequired) {
  throw new Error('ANIMA_REQUIRE_MYSQL=1 but MYSQL_TEST_URL is unset: the MariaDB suite must run here');
}

async function freshMysqlDatabase(base: string): Promise<TestDatabase> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  const url = new URL(base);
  url.pathname = `/${name}`;
  const admin = async (statement: string) => {
    const connection = await createConnection({
      host: url.hostname,
      port: Number(url.port || 3306),
      user: decodeURIComponent(url.username || 'root'),
      password: decodeURIComponent(url.password),
    });
    try {
      await connection.query(statement);
    } finally {
      await connection.end();
    }
  };
  await admin(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  return { dialect: 'mysql', url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS \`${name}\``) };
}

/** A fresh database: a new SQLite file, or a new `test_<random>` database on MYSQL_TEST_URL. */
export async function freshDatabase(dialect: DialectName): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const path = join(tmpdir(), `anima-test-${randomBytes(6).toString('hex')}.sqlite`);
    const drop = async () => {
      for (const suffix of ['', '-wal', '-shm']) await rm(`${path}${suffix}`, { force: true });
    };
    return { dialect, url: `sqlite:${path}`, drop };
  }
  if (!mysqlUrl) throw new Error('MYSQL_TEST_URL is unset');
  return freshMysqlDatabase(mysqlUrl);
}

/**
 * Runs one contract suite on SQLite always and on MariaDB whenever MYSQL_TEST_URL is set (CI sets it
 * and ANIMA_REQUIRE_MYSQL=1, which turns a missing MariaDB into a failure).
 */
export function describeEachDialect(title: string, suite: (dialect: DialectName) => void): void {
  describe(`${title} [sqlite]`, () => suite('sqlite'));
  const mysqlDescribe = mysqlUrl ? describe : describe.skip;
  mysqlDescribe(`${title} [mysql]`, () => suite('mysql'));
}

/**
 * A fresh database of `dialect`, migrated and open, for each test of the suite (or once for the whole suite),
 * closed and dropped after it. Read `handle` and `url` inside hooks and tests.
 */
export function useFreshDatabase(dialect: DialectName, per: 'test' | 'suite' = 'test'): { readonly handle: DatabaseHandle; readonly url: string } {
  let database: TestDatabase | undefined;
  let handle: DatabaseHandle | undefined;
  const [before, after] = per === 'test' ? [beforeEach, afterEach] : [beforeAll, afterAll];
  before(async () => {
    database = await freshDatabase(dialect);
    handle = await openDatabase(database.url);
  });
  after(async () => {
    await handle?.close();
    await database?.drop();
  });
  const opened = () => {
    if (!handle || !database) throw new Error('the fresh database is open only inside the suite’s hooks and tests');
    return { handle, database };
  };
  return {
    get handle() {
      return opened().handle;
    },
    get url() {
      return opened().database.url;
    },
  };
}
