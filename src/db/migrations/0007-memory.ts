import { sql, type Kysely, type Migration } from 'kysely';
import { withDialectOptions, type MigrationDialect } from './table-options.ts';

/**
 * Long-term memory: people (one human across platforms), their platform identities, and what is
 * remembered. A memory replaced by a newer one keeps its row with `superseded_by` set (history). Full-text
 * search is FTS5 over an external-content table kept in step by triggers on SQLite, a FULLTEXT index on
 * MySQL/MariaDB.
 */
export function memory(dialect: MigrationDialect): Migration {
  const mysql = dialect === 'mysql';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('people')
        .ifNotExists()
        .addColumn('id', 'integer', (column) => column.primaryKey().autoIncrement())
        .addColumn('display_name', 'varchar(255)', (column) => column.notNull())
        .addColumn('created_at', 'varchar(32)', (column) => column.notNull())
        .$call(withDialectOptions(dialect))
        .execute();
      await db.schema
        .createTable('person_identities')
        .ifNotExists()
        // `<interface_id>:<user_id>`, compared byte-wise: user ids are case-sensitive on most platforms.
        .addColumn('identity', mysql ? sql`varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin` : 'varchar(255)', (column) => column.primaryKey())
        .addColumn('person_id', 'integer', (column) => column.notNull())
        .addColumn('created_at', 'varchar(32)', (column) => column.notNull())
        .$call(withDialectOptions(dialect))
        .execute();
      await db.schema.createIndex('person_identities_person').on('person_identities').column('person_id').execute();
      await db.schema
        .createTable('memories')
        .ifNotExists()
        .addColumn('id', 'integer', (column) => column.primaryKey().autoIncrement())
        .addColumn('person_id', 'integer')
        .addColumn('kind', 'varchar(16)', (column) => column.notNull())
        .addColumn('topic', 'varchar(128)')
        .addColumn('text', 'text', (column) => column.notNull())
        .addColumn('importance', mysql ? 'double precision' : 'real', (column) => column.notNull())
        .addColumn('created_at', 'varchar(32)', (column) => column.notNull())
        .addColumn('last_recalled_at', 'varchar(32)')
        .addColumn('source_path', mysql ? sql`varchar(512) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin` : 'varchar(512)')
        .addColumn('pinned', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('superseded_by', 'integer')
        .addColumn('embedding', mysql ? sql`longblob` : 'blob')
        .addColumn('embedding_model', 'varchar(128)')
        .$call(withDialectOptions(dialect))
        .execute();
      await db.schema.createIndex('memories_person_current').on('memories').columns(['person_id', 'superseded_by']).execute();
      await db.schema.createIndex('memories_source_kind').on('memories').columns(['source_path', 'kind']).execute();
      await db.schema.createIndex('memories_superseded_by').on('memories').column('superseded_by').execute();
      if (mysql) {
        await sql`CREATE FULLTEXT INDEX memories_text_fulltext ON memories (text)`.execute(db);
        return;
      }
      await sql`CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts USING fts5(text, content='memories', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2')`.execute(
        db,
      );
      await sql`CREATE TRIGGER IF NOT EXISTS memories_fts_insert AFTER INSERT ON memories BEGIN
        INSERT INTO memories_fts(rowid, text) VALUES (new.id, new.text);
      END`.execute(db);
      await sql`CREATE TRIGGER IF NOT EXISTS memories_fts_delete AFTER DELETE ON memories BEGIN
        INSERT INTO memories_fts(memories_fts, rowid, text) VALUES ('delete', old.id, old.text);
      END`.execute(db);
      await sql`CREATE TRIGGER IF NOT EXISTS memories_fts_update AFTER UPDATE OF text ON memories BEGIN
        INSERT INTO memories_fts(memories_fts, rowid, text) VALUES ('delete', old.id, old.text);
        INSERT INTO memories_fts(rowid, text) VALUES (new.id, new.text);
      END`.execute(db);
    },
  };
}
