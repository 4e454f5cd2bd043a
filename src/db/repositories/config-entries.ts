import type { Kysely } from 'kysely';
import type { Database, DialectName } from '../schema.ts';
import { upsert } from '../upsert.ts';

/**
 * The configuration entries saved through the API, as the config store's highest layer. It fits the
 * store's OverrideStore port by shape; naming the port here would make the database layer import config/.
 */
export class ConfigEntriesRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  async load(): Promise<Record<string, string>> {
    const rows = await this.db.selectFrom('config_entries').select(['name', 'value']).execute();
    return Object.fromEntries(rows.map((row) => [row.name, row.value]));
  }

  async save(name: string, value: string): Promise<void> {
    const row = { name, value, updated_at: new Date().toISOString() };
    const insert = this.db.insertInto('config_entries').values(row);
    await upsert(insert, this.dialect, ['name'], { value: row.value, updated_at: row.updated_at }).execute();
  }

  async remove(name: string): Promise<void> {
    await this.db.deleteFrom('config_entries').where('name', '=', name).execute();
  }
}
