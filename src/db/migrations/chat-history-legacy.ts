import { sql, type Kysely } from 'kysely';
import { parseTimestamp, toDatabaseTimestamp, toInterfacePath } from './chat-history-forms.ts';
import type { MigrationDialect } from './table-options.ts';

export const LEGACY_CHAT_HISTORY_TABLE = 'chat_history_legacy';

const BATCH = 500;
/** Legacy timestamps often have whole seconds, so messages of one conversation can share one. */
const MAX_SHIFT_ATTEMPTS = 100;

type Row = Record<string, unknown>;

interface NewRow {
  id: number;
  interface_path: string;
  sender_name: string | null;
  sender_id: string | null;
  message_text: string;
  timestamp: string;
}

// The migration runs before the application's table types apply, so it works on untyped tables.
// biome-ignore lint/suspicious/noExplicitAny: a legacy table has no row type of its own.
type AnyDb = Kysely<any>;

function text(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
}

function sender(value: unknown): string | null {
  const shown = text(value);
  return shown === null ? null : Array.from(shown).slice(0, 255).join('');
}

/** MySQL hands DATETIME/TIMESTAMP over as text (UTC session); SQLite may hold text or epoch numbers. */
function legacyMicros(value: unknown): bigint {
  if (typeof value === 'number' || typeof value === 'bigint') {
    const number = Number(value);
    return BigInt(Math.round(Math.abs(number) >= 1e11 ? number * 1000 : number * 1_000_000));
  }
  try {
    return parseTimestamp(text(value) ?? '');
  } catch {
    // Unreadable (NULL, a zero date): keep the row at the epoch rather than drop it.
    return 0n;
  }
}

function convert(row: Row): NewRow {
  return {
    id: Number(row.id),
    interface_path: toInterfacePath(text(row.interface) ?? '', text(row.chat_id) ?? '', text(row.thread_id)),
    sender_name: sender(row.sender_name),
    sender_id: sender(row.sender_id),
    message_text: text(row.message_text) ?? '',
    timestamp: toDatabaseTimestamp(legacyMicros(row.timestamp)),
  };
}

async function count(db: AnyDb, table: string): Promise<number> {
  const result = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(result.n);
}

function insert(db: AnyDb, dialect: MigrationDialect, rows: NewRow[]) {
  const query = db.insertInto('chat_history').values(rows);
  return dialect === 'mysql'
    ? query.onDuplicateKeyUpdate({ id: sql`id` })
    : query.onConflict((conflict) => conflict.columns(['interface_path', 'timestamp']).doNothing());
}

/**
 * Moves a row whose (path, timestamp) is taken to just after the latest row of its path within the next
 * second, so a run of same-second messages keeps its order at one round trip per row.
 */
async function insertShifted(db: AnyDb, dialect: MigrationDialect, row: NewRow): Promise<void> {
  let from = parseTimestamp(row.timestamp);
  for (let attempt = 0; attempt < MAX_SHIFT_ATTEMPTS; attempt += 1) {
    const latest = await db
      .selectFrom('chat_history')
      .select((eb) => eb.fn.max('timestamp').as('latest'))
      .where('interface_path', '=', row.interface_path)
      .where('timestamp', '>=', toDatabaseTimestamp(from))
      .where('timestamp', '<', toDatabaseTimestamp(from + 1_000_000n))
      .executeTakeFirst();
    from = latest?.latest ? parseTimestamp(String(latest.latest)) + 1n : from;
    await insert(db, dialect, [{ ...row, timestamp: toDatabaseTimestamp(from) }]).execute();
    if (await db.selectFrom('chat_history').select('id').where('id', '=', row.id).executeTakeFirst()) return;
  }
  throw new Error(`Legacy chat_history row ${row.id}: found no free timestamp for ${row.interface_path}`);
}

async function copyBatches(db: AnyDb, dialect: MigrationDialect): Promise<void> {
  let after: number | undefined;
  for (;;) {
    let select = db.selectFrom(LEGACY_CHAT_HISTORY_TABLE).selectAll().orderBy('id').limit(BATCH);
    if (after !== undefined) select = select.where('id', '>', after);
    const rows = (await select.execute()).map(convert);
    if (rows.length === 0) return;
    await insert(db, dialect, rows).execute();
    // Legacy ids are kept, so the rows a duplicate (path, timestamp) turned away are the missing ids.
    const ids = rows.map((row) => row.id);
    const stored = new Set((await db.selectFrom('chat_history').select('id').where('id', 'in', ids).execute()).map((row) => Number(row.id)));
    for (const row of rows) if (!stored.has(row.id)) await insertShifted(db, dialect, row);
    after = ids.at(-1);
  }
}

/**
 * Copies every row of the renamed legacy table into chat_history in one transaction, checks the count and
 * drops the legacy table. The copy runs only into an empty table, so a start interrupted after the copy
 * committed does not copy twice.
 */
export async function copyLegacyChatHistory(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const anyDb = db as AnyDb;
  // Legacy TIMESTAMP columns are read in the session zone; read them as UTC like everything else.
  if (dialect === 'mysql') await sql`SET time_zone = '+00:00'`.execute(anyDb);
  const legacyRows = await count(anyDb, LEGACY_CHAT_HISTORY_TABLE);
  if ((await count(anyDb, 'chat_history')) === 0 && legacyRows > 0) {
    await anyDb.transaction().execute((trx) => copyBatches(trx, dialect));
  }
  const copied = await count(anyDb, 'chat_history');
  if (copied !== legacyRows) {
    throw new Error(`Legacy chat_history conversion: ${legacyRows} legacy rows but ${copied} converted; ${LEGACY_CHAT_HISTORY_TABLE} is kept for inspection`);
  }
  await anyDb.schema.dropTable(LEGACY_CHAT_HISTORY_TABLE).execute();
}
