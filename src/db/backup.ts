import { createWriteStream } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import { sql } from 'kysely';
import mysql from 'mysql2';
import type { Logger } from '../logging.ts';
import type { DatabaseHandle } from './dialect.ts';

const ROWS_PER_BATCH = 500;

type ProgressLog = Pick<Logger, 'info' | 'debug'>;

function backupName(extension: string): string {
  return `anima-${new Date().toISOString().replace(/[:.]/g, '-')}.${extension}`;
}

/**
 * Writes a consistent copy of the database into `directory` and returns the file name. SQLite uses its
 * online backup API; MySQL gets a SQL dump written by the app inside one consistent-snapshot transaction.
 * The file appears under its final name only when complete.
 */
export async function backupDatabase(handle: DatabaseHandle, directory: string, log: ProgressLog): Promise<string> {
  await mkdir(directory, { recursive: true });
  const name = backupName(handle.dialect === 'sqlite' ? 'sqlite' : 'sql');
  const partial = join(directory, `${name}.partial`);
  if (handle.sqlite) {
    await handle.sqlite.backup(partial, {
      progress: ({ totalPages, remainingPages }) => {
        log.debug({ totalPages, remainingPages }, 'database backup progress');
        return 100;
      },
    });
  } else {
    await dumpMysql(handle, partial, log);
  }
  await rename(partial, join(directory, name));
  return name;
}

async function dumpMysql(handle: DatabaseHandle, path: string, log: ProgressLog): Promise<void> {
  const out = createWriteStream(path, { encoding: 'utf8' });
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  try {
    await handle.db.connection().execute(async (connection) => {
      await sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ`.execute(connection);
      await sql`START TRANSACTION WITH CONSISTENT SNAPSHOT`.execute(connection);
      try {
        await write('-- Anima database dump\nSET NAMES utf8mb4;\nSET FOREIGN_KEY_CHECKS = 0;\n\n');
        const tables = await sql<Record<string, string>>`SHOW FULL TABLES WHERE Table_type = 'BASE TABLE'`.execute(connection);
        for (const [index, row] of tables.rows.entries()) {
          const table = String(Object.values(row)[0]);
          const create = await sql<Record<string, string>>`SHOW CREATE TABLE ${sql.id(table)}`.execute(connection);
          const statement = create.rows[0]?.['Create Table'];
          await write(`DROP TABLE IF EXISTS ${mysql.escapeId(table)};\n${statement};\n`);
          let copied = 0;
          for (let offset = 0; ; offset += ROWS_PER_BATCH) {
            const batch = await sql<Record<string, unknown>>`SELECT * FROM ${sql.id(table)} LIMIT ${ROWS_PER_BATCH} OFFSET ${offset}`.execute(connection);
            if (batch.rows.length === 0) break;
            const columns = Object.keys(batch.rows[0] ?? {})
              .map((column) => mysql.escapeId(column))
              .join(', ');
            const values = batch.rows.map(
              (entry) =>
                `(${Object.values(entry)
                  .map((value) => mysql.escape(value as Parameters<typeof mysql.escape>[0]))
                  .join(', ')})`,
            );
            await write(`INSERT INTO ${mysql.escapeId(table)} (${columns}) VALUES\n${values.join(',\n')};\n`);
            copied += batch.rows.length;
          }
          await write('\n');
          log.info({ table, rows: copied, progress: `${index + 1}/${tables.rows.length}` }, 'database backup progress');
        }
        await write('SET FOREIGN_KEY_CHECKS = 1;\n');
      } finally {
        await sql`COMMIT`.execute(connection);
      }
    });
  } finally {
    out.end();
    await once(out, 'close');
  }
}
