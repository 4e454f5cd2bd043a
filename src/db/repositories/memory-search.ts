import { type RawBuilder, sql, type Kysely } from 'kysely';
import type { Database, DialectName, MemoryRow } from '../schema.ts';

/** Which current (or all) memories a search may return. */
export interface SearchFilter {
  personId?: number;
  /** With `personId`: the episodes of this conversation count too, whoever they belong to. */
  conversationPath?: string;
  includeHistory?: boolean;
  limit: number;
}

export type ScoredRow = Omit<MemoryRow, 'embedding' | 'embedding_model'> & { relevance: number };

const COLUMNS = ['id', 'person_id', 'kind', 'topic', 'text', 'importance', 'created_at', 'last_recalled_at', 'source_path', 'pinned', 'superseded_by'];
const columns = sql.join(COLUMNS.map((name) => sql.ref(`m.${name}`)));

const current = (filter: SearchFilter) => (filter.includeHistory ? [] : [sql`m.superseded_by IS NULL`]);
const all = (conditions: RawBuilder<unknown>[]) => (conditions.length > 0 ? sql.join(conditions, sql` AND `) : sql`1 = 1`);

/** FTS5's BM25 (negated, so higher is better) over the matches, kept to the filter's rows. */
function sqliteSearch(terms: string[], filter: SearchFilter) {
  const where = current(filter);
  if (filter.personId !== undefined && filter.conversationPath !== undefined) {
    where.push(sql`(m.person_id = ${filter.personId} OR (m.kind = 'episode' AND m.source_path = ${filter.conversationPath}))`);
  } else if (filter.personId !== undefined) {
    where.push(sql`m.person_id = ${filter.personId}`);
  }
  return sql<ScoredRow>`SELECT ${columns}, -bm25(memories_fts) AS relevance
    FROM memories_fts JOIN memories m ON m.id = memories_fts.rowid
    WHERE memories_fts MATCH ${terms.map((term) => `"${term}"`).join(' OR ')} AND ${all(where)}
    ORDER BY bm25(memories_fts) LIMIT ${filter.limit}`;
}

/**
 * InnoDB's natural-language score. Scoped to a person, the person's rows are read by their index and
 * scored there: matching the whole index first and then dropping other people's rows costs several
 * times more once a word is common.
 */
function mysqlSearch(terms: string[], filter: SearchFilter) {
  const against = sql`MATCH (m.text) AGAINST (${terms.join(' ')} IN NATURAL LANGUAGE MODE)`;
  if (filter.personId === undefined) {
    return sql<ScoredRow>`SELECT ${columns}, ${against} AS relevance FROM memories m
      WHERE ${against} AND ${all(current(filter))} ORDER BY relevance DESC, m.id DESC LIMIT ${filter.limit}`;
  }
  const own = sql`SELECT ${columns}, ${against} AS relevance FROM memories m WHERE m.person_id = ${filter.personId} AND ${all(current(filter))}`;
  const episodes =
    filter.conversationPath === undefined
      ? sql``
      : sql` UNION ALL SELECT ${columns}, ${against} AS relevance FROM memories m
          WHERE m.kind = 'episode' AND m.source_path = ${filter.conversationPath} AND (m.person_id IS NULL OR m.person_id <> ${filter.personId})
          AND ${all(current(filter))}`;
  return sql<ScoredRow>`SELECT * FROM (${own}${episodes}) scoped WHERE relevance > 0 ORDER BY relevance DESC, id DESC LIMIT ${filter.limit}`;
}

/** Full-text search over memories for `terms` (plain words, see src/memory/search-terms.ts), best match first. */
export async function searchMemories(db: Kysely<Database>, dialect: DialectName, terms: string[], filter: SearchFilter): Promise<ScoredRow[]> {
  if (terms.length === 0) return [];
  const { rows } = await (dialect === 'sqlite' ? sqliteSearch(terms, filter) : mysqlSearch(terms, filter)).execute(db);
  return rows.map((row) => ({ ...row, relevance: Number(row.relevance) }));
}
