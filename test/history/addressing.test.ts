import { describe, expect, it } from 'vitest';
import { fromInterfacePath, InvalidInterfacePathError, toInterfacePath } from '../../src/history/interface-path.ts';
import { databaseToIso, InvalidTimestampError, MicrosecondClock, parseTimestamp, toDatabaseTimestamp, toIsoTimestamp } from '../../src/history/timestamps.ts';

describe('interface path conversion', () => {
  it('builds <interface>/<chat_id>[/<thread_id>] and parses it back', () => {
    expect(toInterfacePath('telegram_bot', -100123, 55)).toBe('telegram_bot/-100123/55');
    expect(toInterfacePath('telegram_bot', '-100123')).toBe('telegram_bot/-100123');
    expect(toInterfacePath('telegram_bot', '-100123', null)).toBe('telegram_bot/-100123');
    expect(toInterfacePath('telegram_bot', '-100123', '')).toBe('telegram_bot/-100123');
    expect(fromInterfacePath('telegram_bot/-100123/55')).toEqual({ interface: 'telegram_bot', chat_id: '-100123', thread_id: '55' });
    expect(fromInterfacePath('webui/abc')).toEqual({ interface: 'webui', chat_id: 'abc', thread_id: null });
    expect(fromInterfacePath('matrix/!room:a/b/t1')).toEqual({ interface: 'matrix', chat_id: '!room:a/b', thread_id: 't1' });
    expect(fromInterfacePath('lonely')).toBeUndefined();
  });

  it('refuses an interface id with a slash, an empty chat id or an over-long path', () => {
    expect(() => toInterfacePath('a/b', 1)).toThrow(InvalidInterfacePathError);
    expect(() => toInterfacePath('a', '')).toThrow(InvalidInterfacePathError);
    expect(() => toInterfacePath('a', 'x'.repeat(600))).toThrow(InvalidInterfacePathError);
  });
});

describe('microsecond timestamps', () => {
  it('parses ISO 8601 and the database form, applying zones and keeping microseconds', () => {
    expect(toIsoTimestamp(parseTimestamp('2024-05-01T14:00:00.1234567+02:00'))).toBe('2024-05-01T12:00:00.123456Z');
    expect(databaseToIso('2024-05-01 12:00:00.000001')).toBe('2024-05-01T12:00:00.000001Z');
    expect(toDatabaseTimestamp(parseTimestamp('9999-12-31T23:59:59.999999Z'))).toBe('9999-12-31 23:59:59.999999');
    expect(toDatabaseTimestamp(parseTimestamp('1969-12-31T23:59:59.999999Z'))).toBe('1969-12-31 23:59:59.999999');
  });

  it('rejects impossible and out-of-range date-times', () => {
    for (const text of ['2024-02-30T00:00:00Z', '2024-13-01T00:00:00Z', 'yesterday', '0999-01-01T00:00:00Z', '2024-01-01']) {
      expect(() => parseTimestamp(text), text).toThrow(InvalidTimestampError);
    }
  });

  it('never hands out the same instant twice', () => {
    const clock = new MicrosecondClock(() => 1_700_000_000_000);
    const [a, b, c] = [clock.now(), clock.now(), clock.now()];
    expect([b - a, c - b]).toEqual([1n, 1n]);
  });
});
