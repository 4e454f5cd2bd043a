import type { Kysely } from 'kysely';
import type { ActivityEntry, Database } from '../schema.ts';

export interface ActivityQuery {
  limit: number;
  /** ISO 8601 UTC: only entries at or after this instant. */
  since?: string;
  kind?: string;
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

  async add(kind: string, message: string, data?: unknown): Promise<void> {
    await this.db
      .insertInto('activity_log')
      .values({ kind, message, created_at: new Date().toISOString(), data: data === undefined ? null : JSON.stringify(data) })
      .execute();
  }

  /** Newest first. */
  async list(query: ActivityQuery): Promise<ActivityEntry[]> {
    let select = this.db.selectFrom('activity_log').selectAll();
    if (query.since) select = select.where('created_at', '>=', query.since);
    if (query.kind) select = select.where('kind', '=', query.kind);
    const rows = await select.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(query.limit).execute();
    return rows.map((row) => ({ ...row, id: Number(row.id), data: parseData(row.data) }));
  }
}
