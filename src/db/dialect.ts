import { mkdirSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, MysqlDialect, SqliteDialect, type Migration, type MigrationProvider } from 'kysely';
import { createPool } from 'mysql2';
import { createConnection } from 'mysql2/promise';
import { migrationFactories } from './migrations/index.ts';
import { DatabaseUrlError, explainOpenFailure, type DatabaseTarget } from './open-errors.ts';
import type { Database, DialectName } from './schema.ts';

/** `sqlite:<path>` (relative to cwd, or `:memory:`) or `mysql://user:password@host:port/database`. */
export function parseDatabaseUrl(databaseUrl: string, cwd = process.cwd()): DatabaseTarget {
  if (databaseUrl.startsWith('sqlite:')) {
    const path = databaseUrl.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (path === '') throw new DatabaseUrlError('DATABASE_URL sqlite: needs a file path, for example sqlite:backups/anima.sqlite');
    return { dialect: 'sqlite', path: path === ':memory:' || isAbsolute(path) ? path : resolve(cwd, path) };
  }
  if (databaseUrl.startsWith('mysql://') || databaseUrl.startsWith('mariadb://')) {
    const text = databaseUrl.replace(/^mariadb:/, 'mysql:');
    if (!URL.canParse(text)) throw new DatabaseUrlError('DATABASE_URL is not a valid URL: check its form, mysql://user:password@host:port/database');
    const url = new URL(text);
    const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
    if (!/^[A-Za-z0-9_$]+$/.test(database)) {
      throw new DatabaseUrlError('DATABASE_URL must name a database of letters, digits and underscores, for example mysql://root@127.0.0.1:3306/anima');
    }
    return { dialect: 'mysql', url, database };
  }
  // Only the scheme is quoted: the rest of the value may hold a password.
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/.exec(databaseUrl)?.[0];
  throw new DatabaseUrlError(
    `DATABASE_URL must start with sqlite: or mysql:// (${scheme ? `got "${scheme}"` : 'it names no scheme'}), for example sqlite:backups/anima.sqlite`,
  );
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** The better-sqlite3 handle, for the online backup API; undefined on MySQL. */
  sqlite?: SqliteDatabase.Database;
  close(): Promise<void>;
}

function connectionOptions(url: URL) {
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : 3306,
    user: decodeURIComponent(url.username || 'root'),
    password: decodeURIComponent(url.password),
    charset: 'utf8mb4',
    timezone: 'Z',
    // Keep DATETIME(6) values as text so microseconds survive the driver.
    dateStrings: true,
    supportBigNumbers: true,
  };
}

/** Creates the database when it is missing and the account may (openDatabase explains a refusal). */
async function ensureMysqlDatabase(target: Extract<DatabaseTarget, { dialect: 'mysql' }>): Promise<void> {
  const connection = await createConnection(connectionOptions(target.url));
  try {
    await connection.query(`CREATE DATABASE IF NOT EXISTS \`${target.database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } finally {
    await connection.end();
  }
}

function sqliteHandle(path: string): DatabaseHandle {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SqliteDatabase(path);
  try {
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('foreign_keys = ON');
  } catch (error) {
    // A read-only file or folder fails here; the start reports it, an in-place restart must not keep the file open.
    sqlite.close();
    throw error;
  }
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, dialect: 'sqlite', sqlite, close: () => db.destroy() };
}

async function mysqlHandle(target: Extract<DatabaseTarget, { dialect: 'mysql' }>): Promise<DatabaseHandle> {
  await ensureMysqlDatabase(target);
  const pool = createPool({ ...connectionOptions(target.url), database: target.database, connectionLimit: 10 });
  const db = new Kysely<Database>({ dialect: new MysqlDialect({ pool }) });
  return { db, dialect: 'mysql', close: () => db.destroy() };
}

class StaticMigrations implements MigrationProvider {
  constructor(private readonly dialect: DialectName) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    return Object.fromEntries(Object.entries(migrationFactories).map(([name, factory]) => [name, factory(this.dialect)]));
  }
}

/** Brings the schema up to date; throws with the failing migration's name. */
export async function migrateToLatest(handle: DatabaseHandle): Promise<void> {
  const migrator = new Migrator({ db: handle.db, provider: new StaticMigrations(handle.dialect) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Database migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/**
 * Opens the database DATABASE_URL names and runs the migrations. A problem of the place it names
 * (unreachable, access denied, not writable) is a DatabaseOpenError saying so in one line.
 */
export async function openDatabase(databaseUrl: string, cwd?: string): Promise<DatabaseHandle> {
  const target = parseDatabaseUrl(databaseUrl, cwd);
  const explained = (error: unknown) => explainOpenFailure(error, target) ?? error;
  let handle: DatabaseHandle;
  try {
    handle = target.dialect === 'sqlite' ? sqliteHandle(target.path) : await mysqlHandle(target);
  } catch (error) {
    throw explained(error);
  }
  try {
    await migrateToLatest(handle);
  } catch (error) {
    await handle.close();
    throw explained(error);
  }
  return handle;
}
