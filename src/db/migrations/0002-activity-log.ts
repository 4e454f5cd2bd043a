import type { Kysely, Migration } from 'kysely';
import { withDialectOptions, type MigrationDialect } from './table-options.ts';

export function activityLog(dialect: MigrationDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('activity_log')
        .ifNotExists()
        .addColumn('id', 'integer', (column) => column.primaryKey().autoIncrement())
        .addColumn('created_at', 'varchar(32)', (column) => column.notNull())
        .addColumn('kind', 'varchar(64)', (column) => column.notNull())
        .addColumn('message', 'text', (column) => column.notNull())
        .addColumn('data', 'text')
        .$call(withDialectOptions(dialect))
        .execute();
      await db.schema.createIndex('activity_log_created_at').on('activity_log').column('created_at').execute();
    },
  };
}
