import type { Kysely } from 'kysely';
import type { Database, DialectName } from '../schema.ts';
import { upsert } from '../upsert.ts';

export interface PersonRow {
  id: number;
  display_name: string;
  created_at: string;
}

const byId = (row: { id: number | string } & Omit<PersonRow, 'id'>): PersonRow => ({ ...row, id: Number(row.id) });

/** Rows of people and person_identities; src/memory/memory-store.ts decides what linking means. */
export class PeopleRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  async get(id: number): Promise<PersonRow | undefined> {
    const row = await this.db.selectFrom('people').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? byId(row) : undefined;
  }

  async byIdentity(identity: string): Promise<PersonRow | undefined> {
    const row = await this.db
      .selectFrom('person_identities as i')
      .innerJoin('people as p', 'p.id', 'i.person_id')
      .select(['p.id', 'p.display_name', 'p.created_at'])
      .where('i.identity', '=', identity)
      .executeTakeFirst();
    return row ? byId(row) : undefined;
  }

  /**
   * The person of `identity`, made with `displayName` when the identity is new. Two first messages at
   * once make one person: the identity's key decides, and the loser's person is removed again.
   */
  async ensure(identity: string, displayName: string, now: string): Promise<PersonRow> {
    const known = await this.byIdentity(identity);
    if (known) return known;
    return this.db.transaction().execute(async (trx) => {
      const inserted = await trx.insertInto('people').values({ display_name: displayName, created_at: now }).executeTakeFirstOrThrow();
      const id = Number(inserted.insertId);
      await upsert(trx.insertInto('person_identities').values({ identity, person_id: id, created_at: now }), this.dialect, ['identity'], 'nothing').execute();
      const owner = await trx.selectFrom('person_identities').select('person_id').where('identity', '=', identity).executeTakeFirstOrThrow();
      if (Number(owner.person_id) !== id) await trx.deleteFrom('people').where('id', '=', id).execute();
      const person = await trx.selectFrom('people').selectAll().where('id', '=', Number(owner.person_id)).executeTakeFirstOrThrow();
      return byId(person);
    });
  }

  async list(): Promise<PersonRow[]> {
    const rows = await this.db.selectFrom('people').selectAll().orderBy('id').execute();
    return rows.map(byId);
  }

  /** Every identity with its person, sorted by identity. */
  async identities(): Promise<Array<{ identity: string; person_id: number }>> {
    const rows = await this.db.selectFrom('person_identities').select(['identity', 'person_id']).orderBy('identity').execute();
    return rows.map((row) => ({ identity: row.identity, person_id: Number(row.person_id) }));
  }

  async identitiesOf(personId: number): Promise<string[]> {
    const rows = await this.db.selectFrom('person_identities').select('identity').where('person_id', '=', personId).orderBy('identity').execute();
    return rows.map((row) => row.identity);
  }

  /** Gives `identity` to `personId` (made if new); answers the person that held it before, if any. */
  async assignIdentity(identity: string, personId: number, now: string): Promise<number | undefined> {
    const previous = await this.db.selectFrom('person_identities').select('person_id').where('identity', '=', identity).executeTakeFirst();
    await upsert(this.db.insertInto('person_identities').values({ identity, person_id: personId, created_at: now }), this.dialect, ['identity'], {
      person_id: personId,
    }).execute();
    return previous ? Number(previous.person_id) : undefined;
  }

  async rename(id: number, displayName: string): Promise<boolean> {
    const result = await this.db.updateTable('people').set({ display_name: displayName }).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('person_identities').where('person_id', '=', id).execute();
    await this.db.deleteFrom('people').where('id', '=', id).execute();
  }
}
