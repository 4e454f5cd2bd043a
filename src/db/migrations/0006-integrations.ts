import { sql, type Kysely, type Migration } from 'kysely';
import { withDialectOptions, type MigrationDialect } from './table-options.ts';

/** The integration outbox (queued replies per source) and the stored non-chat integration messages. */
export function integrations(dialect: MigrationDialect): Migration {
  const longText = dialect === 'mysql' ? sql`longtext` : 'text';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('integration_outbox')
        .ifNotExists()
        .addColumn('id', 'integer', (column) => column.primaryKey().autoIncrement())
        .addColumn('source', 'varchar(64)', (column) => column.notNull())
        .addColumn('type', 'varchar(64)', (column) => column.notNull())
        .addColumn('payload', longText, (column) => column.notNull())
        .addColumn('metadata', longText, (column) => column.notNull())
        .addColumn('created_at', 'varchar(32)', (column) => column.notNull())
        .$call(withDialectOptions(dialect))
        .execute();
      await db.schema.createIndex('integration_outbox_source_id').on('integration_outbox').columns(['source', 'id']).execute();
      await db.schema
        .createTable('integration_messages')
        .ifNotExists()
        .addColumn('id', 'varchar(36)', (column) => column.primaryKey())
        .addColumn('source', 'varchar(64)', (column) => column.notNull())
        .addColumn('type', 'varchar(64)', (column) => column.notNull())
        .addColumn('payload', longText, (column) => column.notNull())
        .addColumn('metadata', longText, (column) => column.notNull())
        .addColumn('created_at', 'varchar(32)', (column) => column.notNull())
        .$call(withDialectOptions(dialect))
        .execute();
      await db.schema.createIndex('integration_messages_source_created').on('integration_messages').columns(['source', 'created_at']).execute();
    },
  };
}
