/**
 * The conversation address and the timestamp form of chat_history as migration 0003 writes them: frozen
 * copies of what src/history/interface-path.ts and src/history/timestamps.ts did when 0003 was released.
 * A database converted later must come out as one converted then, whatever the live modules become.
 */

const INTERFACE_PATH_MAX = 512;

/** `<interface>/<chat_id>` or `<interface>/<chat_id>/<thread_id>`; a thread id of null or '' means none. */
export function toInterfacePath(interfaceId: string, chatId: string, threadId: string | null): string {
  const thread = threadId ?? '';
  if (interfaceId === '' || interfaceId.includes('/')) throw new Error(`Invalid interface id: "${interfaceId}"`);
  if (chatId === '') throw new Error('A chat id is required');
  const path = thread === '' ? `${interfaceId}/${chatId}` : `${interfaceId}/${chatId}/${thread}`;
  if (path.length > INTERFACE_PATH_MAX) throw new Error(`Interface path longer than ${INTERFACE_PATH_MAX} characters`);
  return path;
}

const PATTERN = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:?\d{2})?$/;

/** DATETIME's range; also keeps the fixed-width text form sortable. */
const MIN_YEAR = 1000;
const MAX_YEAR = 9999;

function offsetMinutes(zone: string | undefined): number {
  if (zone === undefined || zone === 'Z') return 0;
  const digits = zone.replace(':', '');
  const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5));
  return digits.startsWith('-') ? -minutes : minutes;
}

function assertInRange(millis: number, shown: string): void {
  const year = new Date(millis).getUTCFullYear();
  if (!Number.isFinite(millis) || year < MIN_YEAR || year > MAX_YEAR) {
    throw new Error(`Date-time out of range (years ${MIN_YEAR}-${MAX_YEAR}): ${shown}`);
  }
}

/** Epoch microseconds of ISO 8601 or the database form; a value without a zone is UTC. */
export function parseTimestamp(text: string): bigint {
  const match = PATTERN.exec(text.trim());
  if (!match) throw new Error(`Not an ISO 8601 date-time: ${text}`);
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
    throw new Error(`Not a valid date-time: ${text}`);
  }
  const millis = utc - offsetMinutes(zone) * 60_000;
  assertInRange(millis, text);
  return BigInt(millis) * 1000n + BigInt(fraction.padEnd(6, '0').slice(0, 6));
}

/** `YYYY-MM-DD HH:MM:SS.ffffff`, UTC. */
export function toDatabaseTimestamp(micros: bigint): string {
  let millis = micros / 1000n;
  // bigint division truncates toward zero; instants before 1970 need the floor.
  if (micros < 0n && micros % 1000n !== 0n) millis -= 1n;
  const iso = new Date(Number(millis)).toISOString();
  const micro = String(micros - millis * 1000n).padStart(3, '0');
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}${micro}`;
}
