import { sql, type InsertQueryBuilder, type OnConflictTables, type OnConflictUpdateDatabase, type UpdateObject } from 'kysely';
import type { Database, DialectName } from './schema.ts';

/** Values that both dialects' update clauses accept for the table. */
type UpsertValues<TB extends keyof Database> = UpdateObject<Database, TB, TB> &
  UpdateObject<OnConflictUpdateDatabase<Database, TB>, OnConflictTables<TB>, OnConflictTables<TB>>;

/**
 * An insert that, when `key` (a primary or unique key of the table) is already taken, sets `update` on
 * the row that holds it, or leaves that row alone for `'nothing'`. MySQL writes it ON DUPLICATE KEY
 * UPDATE, SQLite ON CONFLICT. On MySQL "nothing" assigns a key column to itself rather than using INSERT
 * IGNORE, which would also truncate oversize values instead of refusing them.
 */
export function upsert<TB extends keyof Database, O, K extends keyof Database[TB] & string>(
  insert: InsertQueryBuilder<Database, TB, O>,
  dialect: DialectName,
  key: readonly [K, ...K[]],
  update: UpsertValues<TB> | 'nothing',
): InsertQueryBuilder<Database, TB, O> {
  if (dialect === 'mysql') {
    // A computed key of a generic table has no narrower type; the column is one of the table's.
    const unchanged = { [key[0]]: sql.ref(key[0]) } as UpdateObject<Database, TB, TB>;
    return insert.onDuplicateKeyUpdate(update === 'nothing' ? unchanged : update);
  }
  return insert.onConflict((conflict) => {
    const target = conflict.columns(key);
    return update === 'nothing' ? target.doNothing() : target.doUpdateSet(update);
  });
}
