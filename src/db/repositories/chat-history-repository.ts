import type SqliteDatabase from 'better-sqlite3';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { ChatHistoryRow, Database, DialectName, NewChatHistoryRow } from '../schema.ts';
import { upsert } from '../upsert.ts';
import { MysqlChatProcedure, ProcedureMissingError } from './chat-history-repository-mysql.ts';
import { SqliteChatStatements } from './chat-history-repository-sqlite.ts';

export interface RecentQuery {
  limit: number;
  /** Database form: only rows at or after it. */
  since?: string;
}

type Executor = Kysely<Database> | Transaction<Database>;

/** Newest first in the query (the index runs that way), oldest first in the answer. */
function chronological(rows: ChatHistoryRow[]): ChatHistoryRow[] {
  return rows.map((row) => ({ ...row, id: Number(row.id) })).reverse();
}

/**
 * The exclusive upper bound of every string that starts with `prefix`, when `prefix` ends in an ASCII
 * separator (`_` or `/`): that character's successor (the backtick, `0`) bounds the range, so it matches
 * the literal prefix exactly, with no LIKE wildcards to escape, case-sensitively and on the index in both
 * dialects.
 */
function prefixUpperBound(prefix: string): string {
  return `${prefix.slice(0, -1)}${String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)}`;
}

/** Rows of chat_history in and out; src/history/chat-history.ts turns them into the contract's messages. */
export class ChatHistoryRepository {
  private readonly statements: SqliteChatStatements | undefined;
  private readonly procedure: MysqlChatProcedure | undefined;

  /**
   * With the better-sqlite3 handle, saves and loads of one path take the prepared-statement path; on
   * MySQL, `prepareFastPaths()` installs the save procedure. Without either, everything goes through Kysely.
   */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
    sqlite?: SqliteDatabase.Database,
  ) {
    this.statements = sqlite ? new SqliteChatStatements(sqlite) : undefined;
    this.procedure = dialect === 'mysql' ? new MysqlChatProcedure(db) : undefined;
  }

  /** Installs the MySQL save procedure; false when saves will use a client-side transaction instead. */
  async prepareFastPaths(): Promise<boolean> {
    return this.procedure ? this.procedure.install() : this.statements !== undefined;
  }

  private insert(executor: Executor, rows: NewChatHistoryRow[]) {
    // A duplicate (path, timestamp) is a no-op.
    return upsert(executor.insertInto('chat_history').values(rows), this.dialect, ['interface_path', 'timestamp'], 'nothing');
  }

  /** Deletes all but the newest `keep` rows of the path; the derived table lets MySQL read the table it deletes from. */
  private async trim(executor: Executor, interfacePath: string, keep: number): Promise<void> {
    await sql`DELETE FROM chat_history WHERE interface_path = ${interfacePath} AND ${sql.ref('timestamp')} < (
      SELECT cutoff FROM (
        SELECT ${sql.ref('timestamp')} AS cutoff FROM chat_history WHERE interface_path = ${interfacePath}
        ORDER BY ${sql.ref('timestamp')} DESC LIMIT 1 OFFSET ${keep - 1}
      ) AS newest
    )`.execute(executor);
  }

  /** Inserts the row and keeps only the newest `keep` of its path, in one transaction. False for a duplicate. */
  async saveAndTrim(row: NewChatHistoryRow, keep: number): Promise<boolean> {
    if (this.statements?.available) return this.statements.saveAndTrim(row, keep);
    if (this.procedure?.available) {
      try {
        return await this.procedure.saveAndTrim(row, keep);
      } catch (error) {
        if (!(error instanceof ProcedureMissingError)) throw error;
      }
    }
    return this.db.transaction().execute(async (trx) => {
      const result = await this.insert(trx, [row]).executeTakeFirst();
      // MySQL reports a duplicate no-op as one "found" row but without an insert id.
      const inserted = this.dialect === 'mysql' ? result.insertId !== undefined : Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
      if (inserted) await this.trim(trx, row.interface_path, keep);
      return inserted;
    });
  }

  /** Replaces everything of one path by `rows`, keeping the newest `keep`, in one transaction. */
  async replace(interfacePath: string, rows: NewChatHistoryRow[], keep: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('chat_history').where('interface_path', '=', interfacePath).execute();
      if (rows.length === 0) return;
      await this.insert(trx, rows).execute();
      await this.trim(trx, interfacePath, keep);
    });
  }

  /** The newest `limit` rows of one path, oldest first. */
  async recent(interfacePath: string, query: RecentQuery): Promise<ChatHistoryRow[]> {
    if (this.statements?.available) return chronological(this.statements.newestRows(interfacePath, query.limit, query.since));
    let select = this.db.selectFrom('chat_history').selectAll().where('interface_path', '=', interfacePath);
    if (query.since) select = select.where('timestamp', '>=', query.since);
    return chronological(await select.orderBy('timestamp', 'desc').limit(query.limit).execute());
  }

  /** The newest `limit` rows over every path starting with one of `prefixes` (each ending in `_` or `/`), oldest first. */
  async recentByPrefix(prefixes: readonly string[], query: RecentQuery): Promise<ChatHistoryRow[]> {
    let select = this.db
      .selectFrom('chat_history')
      .selectAll()
      .where((eb) => eb.or(prefixes.map((prefix) => eb.and([eb('interface_path', '>=', prefix), eb('interface_path', '<', prefixUpperBound(prefix))]))));
    if (query.since) select = select.where('timestamp', '>=', query.since);
    return chronological(await select.orderBy('timestamp', 'desc').orderBy('id', 'desc').limit(query.limit).execute());
  }

  /** The newest `limit` rows over all paths, oldest first. */
  async recentAll(query: RecentQuery): Promise<ChatHistoryRow[]> {
    let select = this.db.selectFrom('chat_history').selectAll();
    if (query.since) select = select.where('timestamp', '>=', query.since);
    return chronological(await select.orderBy('timestamp', 'desc').orderBy('id', 'desc').limit(query.limit).execute());
  }

  /**
   * Gives the newest row of the path sent by `senderId` with exactly `text` the text `replacement` (what a
   * barge-in left of a reply). False when there is no such row.
   */
  async replaceNewestText(interfacePath: string, senderId: string, text: string, replacement: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('chat_history')
      .select('id')
      .where('interface_path', '=', interfacePath)
      .where('sender_id', '=', senderId)
      .where('message_text', '=', text)
      .orderBy('timestamp', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!row) return false;
    await this.db.updateTable('chat_history').set({ message_text: replacement }).where('id', '=', row.id).execute();
    return true;
  }

  async clear(interfacePath: string): Promise<number> {
    const result = await this.db.deleteFrom('chat_history').where('interface_path', '=', interfacePath).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async count(interfacePath: string): Promise<number> {
    const result = await this.db
      .selectFrom('chat_history')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('interface_path', '=', interfacePath)
      .executeTakeFirstOrThrow();
    return Number(result.n);
  }
}
