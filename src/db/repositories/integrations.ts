import type { Kysely } from 'kysely';
import type { Database, IntegrationRecord, NewIntegrationRecord } from '../schema.ts';

function parseObject(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The columns both tables store for a message, JSON as text; created now. */
function messageColumns(message: NewIntegrationRecord) {
  return {
    source: message.source,
    type: message.type,
    payload: JSON.stringify(message.payload),
    metadata: JSON.stringify(message.metadata),
    created_at: new Date().toISOString(),
  };
}

/** The outbox queues of the integrations (one per source) and the stored non-chat messages. */
export class IntegrationsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async enqueue(message: NewIntegrationRecord): Promise<number> {
    const result = await this.db.insertInto('integration_outbox').values(messageColumns(message)).executeTakeFirstOrThrow();
    return Number(result.insertId);
  }

  /** The queue of one source, oldest first, emptied in the same transaction (what was read is gone). */
  async takeOutbox(source: string): Promise<IntegrationRecord[]> {
    return this.db.transaction().execute(async (trx) => {
      const rows = await trx.selectFrom('integration_outbox').selectAll().where('source', '=', source).orderBy('id', 'asc').execute();
      const last = rows.at(-1);
      if (last) await trx.deleteFrom('integration_outbox').where('source', '=', source).where('id', '<=', last.id).execute();
      return rows.map((row) => ({
        id: String(row.id),
        type: row.type,
        payload: parseObject(row.payload),
        metadata: parseObject(row.metadata),
        created_at: row.created_at,
      }));
    });
  }

  async store(id: string, message: NewIntegrationRecord): Promise<void> {
    await this.db
      .insertInto('integration_messages')
      .values({ id, ...messageColumns(message) })
      .execute();
  }

  /** Stored messages of one source, oldest first. */
  async stored(source: string, limit: number): Promise<IntegrationRecord[]> {
    const rows = await this.db.selectFrom('integration_messages').selectAll().where('source', '=', source).orderBy('created_at', 'desc').limit(limit).execute();
    return rows
      .reverse()
      .map((row) => ({ id: row.id, type: row.type, payload: parseObject(row.payload), metadata: parseObject(row.metadata), created_at: row.created_at }));
  }
}
