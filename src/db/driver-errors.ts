/**
 * What a database driver's error says (mysql2's and better-sqlite3's `code`), and which errors mean "the
 * database is not reachable right now" rather than "this write is wrong": a save that fails with one of
 * these is kept and retried; any other error reaches the caller.
 */
const TRANSIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_CONNECTION_KILLED',
  'ER_QUERY_INTERRUPTED',
  'ER_LOCK_DEADLOCK',
  'ER_LOCK_WAIT_TIMEOUT',
  'ER_OPTION_PREVENTS_STATEMENT',
  // The database or table vanished under a running server (restored from backup, recreated).
  'ER_BAD_DB_ERROR',
  'ER_NO_SUCH_TABLE',
]);

const TRANSIENT_SQLITE = ['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_IOERR', 'SQLITE_CANTOPEN', 'SQLITE_FULL', 'SQLITE_PROTOCOL'];

/** The driver's error code (`ER_...`, `SQLITE_...`, `ECONNREFUSED`), when the error carries one. */
export function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function isTransientDatabaseError(error: unknown, depth = 0): boolean {
  if (error === null || typeof error !== 'object' || depth > 3) return false;
  const code = codeOf(error);
  if (code && (TRANSIENT_CODES.has(code) || TRANSIENT_SQLITE.some((prefix) => code.startsWith(prefix)))) return true;
  // A connection mysql2 marks fatal is gone, whatever the code.
  if ((error as { fatal?: unknown }).fatal === true) return true;
  const nested = [(error as { cause?: unknown }).cause, ...((error as { errors?: unknown[] }).errors ?? [])];
  return nested.some((inner) => isTransientDatabaseError(inner, depth + 1));
}
