import { sql, type Kysely, type Migration } from 'kysely';
import { withDialectOptions, type MigrationDialect } from './table-options.ts';

export function diaryEntries(dialect: MigrationDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('diary_entries')
        .ifNotExists()
        .addColumn('id', 'integer', (column) => column.primaryKey().autoIncrement())
        .addColumn('created_at', 'varchar(32)', (column) => column.notNull())
        .addColumn('interface_path', 'varchar(512)')
        .addColumn('text', dialect === 'mysql' ? sql`longtext` : 'text', (column) => column.notNull())
        .addColumn('tags', 'text', (column) => column.notNull())
        .addColumn('archived', 'integer', (column) => column.notNull().defaultTo(0))
        .$call(withDialectOptions(dialect))
        .execute();
      await db.schema.createIndex('diary_entries_archived_created').on('diary_entries').columns(['archived', 'created_at']).execute();
    },
  };
}
