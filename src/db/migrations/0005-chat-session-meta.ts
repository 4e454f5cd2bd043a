import { sql, type Kysely, type Migration } from 'kysely';
import { withDialectOptions, type MigrationDialect } from './table-options.ts';

/** Metadata the web UI sets for a conversation, keyed like chat_history (byte-wise on MySQL). */
export function chatSessionMeta(dialect: MigrationDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('chat_session_meta')
        .ifNotExists()
        .addColumn('interface_path', dialect === 'mysql' ? sql`varchar(512) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin` : 'varchar(512)', (column) =>
          column.primaryKey(),
        )
        .addColumn('metadata', 'text', (column) => column.notNull())
        .addColumn('updated_at', 'varchar(32)', (column) => column.notNull())
        .$call(withDialectOptions(dialect))
        .execute();
    },
  };
}
