import { sql, type Kysely, type Migration } from 'kysely';
import { copyLegacyChatHistory, LEGACY_CHAT_HISTORY_TABLE } from './chat-history-legacy.ts';
import { withDialectOptions, type MigrationDialect } from './table-options.ts';

/**
 * The unified chat history. On MySQL the path compares byte-wise (chat ids are case-sensitive on most
 * platforms), and its 512 utf8mb4 characters (2048 bytes) plus DATETIME(6) stay under InnoDB's 3072-byte
 * key limit, so the unique (interface_path, timestamp) index doubles as the "newest N of one path" index.
 */
async function createTable(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const mysql = dialect === 'mysql';
  await db.schema
    .createTable('chat_history')
    .ifNotExists()
    .addColumn('id', 'integer', (column) => column.primaryKey().autoIncrement())
    .addColumn('interface_path', mysql ? sql`varchar(512) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin` : 'varchar(512)', (column) => column.notNull())
    .addColumn('sender_name', 'varchar(255)')
    .addColumn('sender_id', 'varchar(255)')
    .addColumn('message_text', mysql ? sql`longtext` : 'text', (column) => column.notNull())
    .addColumn('timestamp', mysql ? sql`datetime(6)` : 'varchar(26)', (column) => column.notNull())
    .addUniqueConstraint('chat_history_path_timestamp', ['interface_path', 'timestamp'])
    .$call(withDialectOptions(dialect))
    .execute();
}

/** Creates the table, or converts the older chat_id/interface/thread_id layout into it without losing rows. */
export function chatHistory(dialect: MigrationDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const tables = await db.introspection.getTables();
      const current = tables.find((table) => table.name === 'chat_history');
      const isLegacy = current?.columns.some((column) => column.name === 'chat_id') ?? false;
      // A start that stopped half-way through the conversion leaves the renamed table behind; resume it.
      const legacyPending = isLegacy || tables.some((table) => table.name === LEGACY_CHAT_HISTORY_TABLE);
      if (isLegacy) await db.schema.alterTable('chat_history').renameTo(LEGACY_CHAT_HISTORY_TABLE).execute();
      await createTable(db, dialect);
      if (legacyPending) await copyLegacyChatHistory(db, dialect);
    },
  };
}
