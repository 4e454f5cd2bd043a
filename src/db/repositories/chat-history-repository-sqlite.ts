import type SqliteDatabase from 'better-sqlite3';
import type { ChatHistoryRow, NewChatHistoryRow } from '../schema.ts';

const COLUMNS = 'id, interface_path, sender_name, sender_id, message_text, timestamp';

/**
 * The two hot paths of chat history on SQLite (save with cleanup, load the newest N) as prepared
 * better-sqlite3 statements run synchronously. Through Kysely each statement costs more than the write
 * itself; here a save is one synchronous transaction, so nothing can interleave with it. They share the
 * connection Kysely uses, so while a Kysely transaction is open on it (between its awaits) they stand
 * aside and the caller takes the Kysely path, which waits for that transaction.
 */
export class SqliteChatStatements {
  private readonly insert: SqliteDatabase.Statement;
  private readonly trim: SqliteDatabase.Statement;
  private readonly newest: SqliteDatabase.Statement;
  private readonly newestSince: SqliteDatabase.Statement;
  private readonly saveTransaction: (row: NewChatHistoryRow, keep: number) => boolean;

  constructor(private readonly sqlite: SqliteDatabase.Database) {
    this.insert = sqlite.prepare(
      'INSERT INTO chat_history (interface_path, sender_name, sender_id, message_text, timestamp) VALUES (?, ?, ?, ?, ?) ON CONFLICT (interface_path, timestamp) DO NOTHING',
    );
    this.trim = sqlite.prepare(
      'DELETE FROM chat_history WHERE interface_path = ? AND timestamp < (SELECT timestamp FROM chat_history WHERE interface_path = ? ORDER BY timestamp DESC LIMIT 1 OFFSET ?)',
    );
    this.newest = sqlite.prepare(`SELECT ${COLUMNS} FROM chat_history WHERE interface_path = ? ORDER BY timestamp DESC LIMIT ?`);
    this.newestSince = sqlite.prepare(`SELECT ${COLUMNS} FROM chat_history WHERE interface_path = ? AND timestamp >= ? ORDER BY timestamp DESC LIMIT ?`);
    this.saveTransaction = sqlite.transaction((row: NewChatHistoryRow, keep: number) => {
      const { changes } = this.insert.run(row.interface_path, row.sender_name, row.sender_id, row.message_text, row.timestamp);
      if (changes > 0) this.trim.run(row.interface_path, row.interface_path, keep - 1);
      return changes > 0;
    });
  }

  /** False while a Kysely transaction holds the shared connection. */
  get available(): boolean {
    return !this.sqlite.inTransaction;
  }

  saveAndTrim(row: NewChatHistoryRow, keep: number): boolean {
    return this.saveTransaction(row, keep);
  }

  /** Newest first. */
  newestRows(interfacePath: string, limit: number, since?: string): ChatHistoryRow[] {
    return (since === undefined ? this.newest.all(interfacePath, limit) : this.newestSince.all(interfacePath, since, limit)) as ChatHistoryRow[];
  }
}
