/**
 * Chat timestamps carry microseconds, which a JS Date cannot hold, so they travel as epoch microseconds
 * in a bigint (exact over DATETIME's whole range; a number would be exact only until 2255) and are stored
 * as `YYYY-MM-DD HH:MM:SS.ffffff` UTC: the literal a MySQL DATETIME(6) accepts and returns (the pool
 * reads dates as strings), and a fixed-width text that sorts chronologically on SQLite. Clients see
 * ISO 8601 with six fraction digits and a `Z`.
 */

const PATTERN = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:?\d{2})?$/;

/** DATETIME's range; also keeps the fixed-width text form sortable. */
const MIN_YEAR = 1000;
const MAX_YEAR = 9999;

export class InvalidTimestampError extends Error {}

function offsetMinutes(zone: string | undefined): number {
  if (zone === undefined || zone === 'Z') return 0;
  const digits = zone.replace(':', '');
  const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5));
  return digits.startsWith('-') ? -minutes : minutes;
}

function assertInRange(millis: number, shown: string): void {
  const year = new Date(millis).getUTCFullYear();
  if (!Number.isFinite(millis) || year < MIN_YEAR || year > MAX_YEAR) {
    throw new InvalidTimestampError(`Date-time out of range (years ${MIN_YEAR}-${MAX_YEAR}): ${shown}`);
  }
}

/** Parses ISO 8601 or the database form; a value without a zone is UTC. Digits past microseconds are cut. */
export function parseTimestamp(text: string): bigint {
  const match = PATTERN.exec(text.trim());
  if (!match) throw new InvalidTimestampError(`Not an ISO 8601 date-time: ${text}`);
  const [, year, month, day, hour, minute, second, fraction = '', zone] = match;
  const fields = [year, month, day, hour, minute, second].map(Number) as [number, number, number, number, number, number];
  const utc = Date.UTC(fields[0], fields[1] - 1, fields[2], fields[3], fields[4], fields[5]);
  const check = new Date(utc);
  // Date.UTC rolls 31 February over to March; a round trip catches such dates.
  if (
    check.getUTCFullYear() !== fields[0] ||
    check.getUTCMonth() !== fields[1] - 1 ||
    check.getUTCDate() !== fields[2] ||
    check.getUTCHours() !== fields[3] ||
    check.getUTCMinutes() !== fields[4] ||
    check.getUTCSeconds() !== fields[5]
  ) {
    throw new InvalidTimestampError(`Not a valid date-time: ${text}`);
  }
  const millis = utc - offsetMinutes(zone) * 60_000;
  assertInRange(millis, text);
  return BigInt(millis) * 1000n + BigInt(fraction.padEnd(6, '0').slice(0, 6));
}

/** Epoch microseconds of a Date or an ISO 8601 text. */
export function toMicros(value: Date | string): bigint {
  if (typeof value === 'string') return parseTimestamp(value);
  assertInRange(value.getTime(), String(value));
  return BigInt(value.getTime()) * 1000n;
}

/** Epoch milliseconds, rounded up: the first millisecond at or after the instant. */
export function toMillisCeil(micros: bigint): number {
  const millis = micros / 1000n + (micros % 1000n > 0n ? 1n : 0n);
  return Number(millis);
}

function split(micros: bigint): { iso: string; micro: string } {
  let millis = micros / 1000n;
  // bigint division truncates toward zero; instants before 1970 need the floor.
  if (micros < 0n && micros % 1000n !== 0n) millis -= 1n;
  const rest = micros - millis * 1000n;
  return { iso: new Date(Number(millis)).toISOString(), micro: String(rest).padStart(3, '0') };
}

/** `YYYY-MM-DD HH:MM:SS.ffffff`, UTC. */
export function toDatabaseTimestamp(micros: bigint): string {
  const { iso, micro } = split(micros);
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}${micro}`;
}

/** `YYYY-MM-DDTHH:MM:SS.ffffffZ`. */
export function toIsoTimestamp(micros: bigint): string {
  const { iso, micro } = split(micros);
  return `${iso.slice(0, 23)}${micro}Z`;
}

const DATABASE_FORM = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/;

/** The database form read back (either dialect) as ISO 8601; the usual exact form is only re-punctuated. */
export function databaseToIso(value: string): string {
  if (DATABASE_FORM.test(value)) return `${value.slice(0, 10)}T${value.slice(11)}Z`;
  return toIsoTimestamp(parseTimestamp(value));
}

/**
 * The clock's milliseconds, made strictly increasing by whole microseconds: two messages saved in the
 * same millisecond get distinct timestamps, so the (path, timestamp) uniqueness never eats one of them.
 */
export class MicrosecondClock {
  private last = 0n;

  constructor(private readonly nowMs: () => number = Date.now) {}

  now(): bigint {
    const now = BigInt(this.nowMs()) * 1000n;
    this.last = now > this.last ? now : this.last + 1n;
    return this.last;
  }
}
