import type { Kysely } from 'kysely';
import type { Database, DiaryEntry, NewDiaryEntry } from '../schema.ts';

export interface DiaryQuery {
  limit: number;
  /** ISO 8601 UTC: only entries at or after it. */
  since?: string;
  archived?: boolean;
}

function parseTags(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((tag): tag is string => typeof tag === 'string') : [];
  } catch {
    return [];
  }
}

export class DiaryRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async add(entry: NewDiaryEntry): Promise<DiaryEntry> {
    const row = {
      created_at: entry.created_at ?? new Date().toISOString(),
      interface_path: entry.interface_path ?? null,
      text: entry.text,
      tags: JSON.stringify(entry.tags ?? []),
      archived: 0,
    };
    const result = await this.db.insertInto('diary_entries').values(row).executeTakeFirstOrThrow();
    return { ...row, id: Number(result.insertId), tags: entry.tags ?? [], archived: false };
  }

  /** Newest first. */
  async list(query: DiaryQuery): Promise<DiaryEntry[]> {
    let select = this.db.selectFrom('diary_entries').selectAll();
    if (query.archived !== undefined) select = select.where('archived', '=', query.archived ? 1 : 0);
    if (query.since) select = select.where('created_at', '>=', query.since);
    const rows = await select.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(query.limit).execute();
    return rows.map((row) => ({ ...row, id: Number(row.id), tags: parseTags(row.tags), archived: Number(row.archived) === 1 }));
  }

  /** Sets the archived flag of these entries; returns how many exist among them. */
  async setArchived(ids: number[], archived: boolean): Promise<number> {
    const result = await this.db
      .updateTable('diary_entries')
      .set({ archived: archived ? 1 : 0 })
      .where('id', 'in', ids)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Deletes archived entries: those among `ids`, or all of them. Entries not archived are never deleted. */
  async deleteArchived(ids?: number[]): Promise<number> {
    let query = this.db.deleteFrom('diary_entries').where('archived', '=', 1);
    if (ids) query = query.where('id', 'in', ids);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
