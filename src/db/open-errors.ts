import { dirname } from 'node:path';
import { codeOf } from './driver-errors.ts';

/** Where DATABASE_URL points, as `dialect.ts` parses it. */
export type DatabaseTarget = { dialect: 'sqlite'; path: string } | { dialect: 'mysql'; url: URL; database: string };

/**
 * The database DATABASE_URL names cannot be used. Its message is the whole story in one line (what failed,
 * which variable, what to check), so the start prints it alone instead of a driver's stack trace.
 */
export class DatabaseOpenError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** DATABASE_URL names no supported database. */
export class DatabaseUrlError extends DatabaseOpenError {}

interface Explanation {
  problem: string;
  check: string;
}

/** Every code an error carries, its own first, then those of its cause and of an AggregateError's parts. */
function codesOf(error: unknown, depth = 0): string[] {
  if (error === null || typeof error !== 'object' || depth > 3) return [];
  const own = codeOf(error);
  const nested = [(error as { cause?: unknown }).cause, ...((error as { errors?: unknown[] }).errors ?? [])];
  return [...(own ? [own] : []), ...nested.flatMap((inner) => codesOf(inner, depth + 1))];
}

function explainMysql(codes: string[], target: Extract<DatabaseTarget, { dialect: 'mysql' }>): Explanation | undefined {
  const { hostname, port } = target.url;
  const address = `${hostname}:${port || 3306}`;
  const user = decodeURIComponent(target.url.username || 'root');
  const has = (...wanted: string[]) => wanted.some((code) => codes.includes(code));
  if (has('ECONNREFUSED'))
    return { problem: `nothing accepts connections at ${address}`, check: 'that MySQL or MariaDB runs there and that DATABASE_URL names its host and port' };
  if (has('ENOTFOUND', 'EAI_AGAIN')) return { problem: `the host name "${hostname}" is unknown`, check: 'the host in DATABASE_URL' };
  if (has('ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET')) {
    return { problem: `${address} cannot be reached`, check: 'the host and port in DATABASE_URL, and any firewall on the way' };
  }
  if (has('ER_ACCESS_DENIED_ERROR', 'ER_ACCESS_DENIED_NO_PASSWORD_ERROR', 'ER_NOT_SUPPORTED_AUTH_MODE')) {
    return { problem: `access denied for the user "${user}"`, check: 'the user name and password in DATABASE_URL' };
  }
  if (has('ER_DBACCESS_DENIED_ERROR')) {
    return {
      problem: `the user "${user}" may not use or create the database "${target.database}"`,
      check: 'that the database exists, or grant CREATE to the user',
    };
  }
  if (has('ER_BAD_DB_ERROR')) return { problem: `unknown database "${target.database}"`, check: 'the database name in DATABASE_URL, or create it' };
  return undefined;
}

function explainSqlite(codes: string[], path: string): Explanation | undefined {
  const has = (...prefixes: string[]) => codes.some((code) => prefixes.some((prefix) => code.startsWith(prefix)));
  const writable = `that the folder ${dirname(path)} exists and this user may write there, or point DATABASE_URL elsewhere`;
  if (has('SQLITE_READONLY')) return { problem: `${path} is read-only`, check: `that this user may write the file and its folder ${dirname(path)}` };
  if (has('SQLITE_NOTADB', 'SQLITE_CORRUPT')) return { problem: `${path} is not a SQLite database`, check: 'that DATABASE_URL names the right file' };
  if (has('ENOTDIR', 'EEXIST')) return { problem: `a file stands where the folder of ${path} should be`, check: 'the path in DATABASE_URL' };
  if (has('SQLITE_CANTOPEN', 'EACCES', 'EPERM', 'EROFS')) return { problem: `${path} cannot be created or opened`, check: writable };
  return undefined;
}

/** `sqlite:<path>`, or the MySQL URL without its password (this line is printed and logged). */
function shown(target: DatabaseTarget): string {
  if (target.dialect === 'sqlite') return `sqlite:${target.path}`;
  const url = new URL(target.url);
  if (url.password) url.password = '***';
  return url.toString();
}

/**
 * The one-line error for a failure while opening the database, when it is a problem of the place
 * DATABASE_URL names (unreachable host, access denied, unknown database, a path that cannot be written);
 * undefined for anything else, which keeps its own message and stack.
 */
export function explainOpenFailure(error: unknown, target: DatabaseTarget): DatabaseOpenError | undefined {
  const codes = codesOf(error);
  const explanation = target.dialect === 'sqlite' ? explainSqlite(codes, target.path) : explainMysql(codes, target);
  if (!explanation) return undefined;
  return new DatabaseOpenError(`Cannot open the database of DATABASE_URL (${shown(target)}): ${explanation.problem}. Check ${explanation.check}.`, {
    cause: error,
  });
}
