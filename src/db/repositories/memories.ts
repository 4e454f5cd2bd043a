import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database, DialectName, MemoriesTable, MemoryKind, MemoryRow } from '../schema.ts';
import { searchMemories, type ScoredRow, type SearchFilter } from './memory-search.ts';

export type StoredMemory = Omit<MemoryRow, 'embedding' | 'embedding_model'>;

const COLUMNS = [
  'id',
  'person_id',
  'kind',
  'topic',
  'text',
  'importance',
  'created_at',
  'last_recalled_at',
  'source_path',
  'pinned',
  'superseded_by',
] as const satisfies ReadonlyArray<keyof StoredMemory>;

/** Both drivers may answer numbers as text (MySQL's DOUBLE and BIGINT with supportBigNumbers). */
function normalise<T extends StoredMemory>(row: T): T {
  return {
    ...row,
    id: Number(row.id),
    person_id: row.person_id === null ? null : Number(row.person_id),
    importance: Number(row.importance),
    pinned: Number(row.pinned),
    superseded_by: row.superseded_by === null ? null : Number(row.superseded_by),
  };
}

export interface ListQuery {
  personId?: number;
  includeHistory?: boolean;
  limit: number;
}

/** Rows of memories in and out; src/memory/memory-store.ts decides merging, history and forgetting. */
export class MemoriesRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  async insert(row: Insertable<MemoriesTable>): Promise<number> {
    const result = await this.db.insertInto('memories').values(row).executeTakeFirstOrThrow();
    return Number(result.insertId);
  }

  async get(id: number): Promise<StoredMemory | undefined> {
    const row = await this.db.selectFrom('memories').select(COLUMNS).where('id', '=', id).executeTakeFirst();
    return row ? normalise(row) : undefined;
  }

  /** Pinned first, then newest first. */
  async list(query: ListQuery): Promise<StoredMemory[]> {
    let select = this.db.selectFrom('memories').select(COLUMNS);
    if (query.personId !== undefined) select = select.where('person_id', '=', query.personId);
    if (!query.includeHistory) select = select.where('superseded_by', 'is', null);
    const rows = await select.orderBy('pinned', 'desc').orderBy('created_at', 'desc').orderBy('id', 'desc').limit(query.limit).execute();
    return rows.map(normalise);
  }

  async search(terms: string[], filter: SearchFilter): Promise<ScoredRow[]> {
    return (await searchMemories(this.db, this.dialect, terms, filter)).map(normalise);
  }

  /** The person's current memories that are recalled whatever is asked: pinned ones and the profile. */
  async standing(personId: number, limit: number): Promise<StoredMemory[]> {
    const rows = await this.db
      .selectFrom('memories')
      .select(COLUMNS)
      .where('person_id', '=', personId)
      .where('superseded_by', 'is', null)
      .where((eb) => eb.or([eb('pinned', '=', 1), eb('kind', '=', 'profile')]))
      .orderBy('pinned', 'desc')
      .orderBy('importance', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(normalise);
  }

  /** The newest current episodes of one conversation. */
  async episodes(conversationPath: string, limit: number): Promise<StoredMemory[]> {
    const rows = await this.db
      .selectFrom('memories')
      .select(COLUMNS)
      .where('source_path', '=', conversationPath)
      .where('kind', '=', 'episode')
      .where('superseded_by', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(normalise);
  }

  /** The current memory of a person with this topic, or with exactly this text. */
  async current(personId: number, match: { topic?: string | null; text?: string; kind: MemoryKind }): Promise<StoredMemory | undefined> {
    const { topic, text } = match;
    if (!topic && text === undefined) return undefined;
    const row = await this.db
      .selectFrom('memories')
      .select(COLUMNS)
      .where('person_id', '=', personId)
      .where('superseded_by', 'is', null)
      .where((eb) =>
        eb.or([...(topic ? [eb('topic', '=', topic)] : []), ...(text !== undefined ? [eb.and([eb('text', '=', text), eb('kind', '=', match.kind)])] : [])]),
      )
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return row ? normalise(row) : undefined;
  }

  async update(id: number, changes: Updateable<MemoriesTable>): Promise<void> {
    await this.db.updateTable('memories').set(changes).where('id', '=', id).execute();
  }

  /** `ids` and every older version that led to them (rows whose `superseded_by` chain reaches one of them). */
  async withHistory(ids: number[]): Promise<number[]> {
    const found = new Set(ids);
    let frontier = ids;
    while (frontier.length > 0) {
      const older = await this.db.selectFrom('memories').select('id').where('superseded_by', 'in', frontier).execute();
      frontier = older.map((row) => Number(row.id)).filter((id) => !found.has(id));
      for (const id of frontier) found.add(id);
    }
    return [...found];
  }

  async delete(ids: number[]): Promise<number> {
    if (ids.length === 0) return 0;
    const result = await this.db.deleteFrom('memories').where('id', 'in', ids).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async deleteOfPerson(personId: number): Promise<number> {
    const result = await this.db.deleteFrom('memories').where('person_id', '=', personId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async countByPerson(): Promise<Map<number, number>> {
    const rows = await this.db
      .selectFrom('memories')
      .select((eb) => ['person_id', eb.fn.countAll().as('n')])
      .where('superseded_by', 'is', null)
      .where('person_id', 'is not', null)
      .groupBy('person_id')
      .execute();
    return new Map(rows.map((row) => [Number(row.person_id), Number(row.n)]));
  }

  async markRecalled(ids: number[], at: string): Promise<void> {
    if (ids.length === 0) return;
    await this.db.updateTable('memories').set({ last_recalled_at: at }).where('id', 'in', ids).execute();
  }

  async reassign(fromPerson: number, toPerson: number): Promise<void> {
    await this.db.updateTable('memories').set({ person_id: toPerson }).where('person_id', '=', fromPerson).execute();
  }

  async setEmbedding(id: number, model: string, vector: Float32Array): Promise<void> {
    // A Buffer: both drivers bind it as binary.
    const embedding = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
    await this.db.updateTable('memories').set({ embedding, embedding_model: model }).where('id', '=', id).execute();
  }

  /** Current memories of the scope with a vector of `model`, for similarity. */
  async embeddedIn(scope: { personId: number; conversationPath: string }, model: string, limit: number): Promise<Array<{ id: number; vector: Float32Array }>> {
    const rows = await this.db
      .selectFrom('memories')
      .select(['id', 'embedding'])
      .where('superseded_by', 'is', null)
      .where('embedding_model', '=', model)
      .where((eb) => eb.or([eb('person_id', '=', scope.personId), eb.and([eb('kind', '=', 'episode'), eb('source_path', '=', scope.conversationPath)])]))
      .limit(limit)
      .execute();
    return rows.flatMap((row) => {
      if (!row.embedding) return [];
      // Copied: the driver's bytes may sit at an offset a Float32Array view cannot start at.
      const bytes = Uint8Array.from(row.embedding);
      return [{ id: Number(row.id), vector: new Float32Array(bytes.buffer, 0, Math.floor(bytes.byteLength / 4)) }];
    });
  }

  async getMany(ids: number[]): Promise<StoredMemory[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.selectFrom('memories').select(COLUMNS).where('id', 'in', ids).execute();
    return rows.map(normalise);
  }

  /** Every memory, history included, oldest first (the export). */
  async all(): Promise<StoredMemory[]> {
    const rows = await this.db.selectFrom('memories').select(COLUMNS).orderBy('id').execute();
    return rows.map(normalise);
  }
}
