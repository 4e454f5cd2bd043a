import { type Kysely, sql } from 'kysely';
import type { ActivityEntry, Database } from '../schema.ts';

export interface ActivityQuery {
  limit: number;
  /** ISO 8601 UTC: only entries at or after this instant. */
  since?: string;
  kind?: string;
  /** Only kinds that start with this (a component's own entries, `radio.` for example). */
  kindPrefix?: string;
}

function parseData(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export class ActivityLogRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Returns the new entry's id. */
  async add(kind: string, message: string, data?: unknown): Promise<number> {
    const result = await this.db
      .insertInto('activity_log')
      .values({ kind, message, created_at: new Date().toISOString(), data: data === undefined ? null : JSON.stringify(data) })
      .executeTakeFirstOrThrow();
    return Number(result.insertId);
  }

  async find(id: number): Promise<ActivityEntry | undefined> {
    const row = await this.db.selectFrom('activity_log').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? { ...row, id: Number(row.id), data: parseData(row.data) } : undefined;
  }

  /** Newest first. */
  async list(query: ActivityQuery): Promise<ActivityEntry[]> {
    let select = this.db.selectFrom('activity_log').selectAll();
    if (query.since) select = select.where('created_at', '>=', query.since);
    if (query.kind) select = select.where('kind', '=', query.kind);
    // substr, not LIKE: `_` and `%` in a prefix stay literal, with the same meaning in SQLite and MySQL.
    if (query.kindPrefix) select = select.where(sql<string>`substr(kind, 1, ${query.kindPrefix.length})`, '=', query.kindPrefix);
    const rows = await select.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(query.limit).execute();
    return rows.map((row) => ({ ...row, id: Number(row.id), data: parseData(row.data) }));
  }
}
