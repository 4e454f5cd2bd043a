/**
 * A throw-away database for one benchmark run: a SQLite file in a temporary folder, or a database of its
 * own on the MariaDB/MySQL server of MYSQL_TEST_URL (default mysql://root@127.0.0.1:3306/test), with a
 * raw mysql2 pool for the baseline (the same text protocol Kysely's MySQL dialect uses).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection, createPool, type Pool } from 'mysql2/promise';
import type { DialectName } from '../../src/db/schema.ts';

export interface BenchDatabase {
  url: string;
  /** A raw pool of one connection on the MySQL database; undefined on SQLite (use the handle's own driver). */
  mysqlPool(): Pool | undefined;
  drop(): Promise<void>;
}

const mysqlBase = () => new URL(process.env.MYSQL_TEST_URL ?? 'mysql://root@127.0.0.1:3306/test');

function serverOptions(base: URL) {
  return {
    host: base.hostname,
    port: Number(base.port || 3306),
    user: decodeURIComponent(base.username || 'root'),
    password: decodeURIComponent(base.password),
  };
}

/** Whether the MySQL server of MYSQL_TEST_URL answers; a benchmark skips that dialect when not. */
export async function mysqlAnswers(): Promise<boolean> {
  try {
    const connection = await createConnection({ ...serverOptions(mysqlBase()), connectTimeout: 3000 });
    await connection.end();
    return true;
  } catch {
    return false;
  }
}

export async function benchDatabase(dialect: DialectName, name: string): Promise<BenchDatabase> {
  if (dialect === 'sqlite') {
    const directory = await mkdtemp(join(tmpdir(), `anima-bench-${name}-`));
    return { url: `sqlite:${join(directory, 'bench.sqlite')}`, mysqlPool: () => undefined, drop: () => rm(directory, { recursive: true, force: true }) };
  }
  const base = mysqlBase();
  const database = `bench_${name}_${process.pid}`;
  const admin = async (statement: string) => {
    const connection = await createConnection(serverOptions(base));
    await connection.query(statement);
    await connection.end();
  };
  await admin(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  const url = new URL(base);
  url.pathname = `/${database}`;
  let pool: Pool | undefined;
  return {
    url: url.toString(),
    mysqlPool: () => {
      pool ??= createPool({ ...serverOptions(base), database, charset: 'utf8mb4', dateStrings: true, connectionLimit: 1 });
      return pool;
    },
    drop: async () => {
      await pool?.end();
      await admin(`DROP DATABASE IF EXISTS \`${database}\``);
    },
  };
}
