import type { Kysely } from 'kysely';
import type { Database, DialectName, SessionMetaRow } from '../schema.ts';
import { upsert } from '../upsert.ts';

export class SessionMetaRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  async get(interfacePath: string): Promise<SessionMetaRow | undefined> {
    return this.db.selectFrom('chat_session_meta').selectAll().where('interface_path', '=', interfacePath).executeTakeFirst();
  }

  async put(row: SessionMetaRow): Promise<void> {
    const insert = this.db.insertInto('chat_session_meta').values(row);
    await upsert(insert, this.dialect, ['interface_path'], { metadata: row.metadata, updated_at: row.updated_at }).execute();
  }

  async remove(interfacePath: string): Promise<void> {
    await this.db.deleteFrom('chat_session_meta').where('interface_path', '=', interfacePath).execute();
  }
}
