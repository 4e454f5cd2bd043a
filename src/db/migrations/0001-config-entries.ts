import type { Kysely, Migration } from 'kysely';
import { withDialectOptions, type MigrationDialect } from './table-options.ts';

export function configEntries(dialect: MigrationDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('config_entries')
        .ifNotExists()
        .addColumn('name', 'varchar(128)', (column) => column.primaryKey())
        .addColumn('value', 'text', (column) => column.notNull())
        .addColumn('updated_at', 'varchar(32)', (column) => column.notNull())
        .$call(withDialectOptions(dialect))
        .execute();
    },
  };
}
