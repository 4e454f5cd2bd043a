import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { SAVE_PROCEDURE } from '../../../src/db/repositories/chat-history-repository-mysql.ts';
import { ChatHistoryRepository } from '../../../src/db/repositories/chat-history-repository.ts';
import { ChatHistory } from '../../../src/history/chat-history.ts';
import type { DialectName } from '../../../src/db/schema.ts';
import { createLogger } from '../../../src/logging.ts';
import { describeEachDialect, useFreshDatabase } from '../../helpers/dialects.ts';

/** `fast`: the production wiring (SQLite prepared statements, the MySQL save procedure); else Kysely only. */
function contract(dialect: DialectName, fast: boolean) {
  const fresh = useFreshDatabase(dialect, 'suite');
  let history: ChatHistory;
  let keep = 10;

  beforeAll(async () => {
    const { logger } = createLogger({ level: 'silent', pretty: false });
    const repository = new ChatHistoryRepository(fresh.handle.db, fresh.handle.dialect, fast ? fresh.handle.sqlite : undefined);
    if (fast) expect(await repository.prepareFastPaths()).toBe(true);
    history = new ChatHistory({ repository, keep: () => keep, logger });
  });
  afterAll(async () => {
    await history.stop();
  });
  beforeEach(async () => {
    keep = 10;
    await fresh.handle.db.deleteFrom('chat_history').execute();
  });

  it('loads messages oldest first with username and text', async () => {
    await history.save({ interface_path: 'telegram/1', message_text: 'hello', sender_name: 'Ann', sender_id: '7' });
    await history.saveOwn('telegram/1', 'hi Ann');
    const messages = await history.load('telegram/1');
    expect(messages.map((message) => [message.username, message.text, message.role])).toEqual([
      ['Ann', 'hello', 'user'],
      ['self', 'hi Ann', 'assistant'],
    ]);
    expect(messages[1]).toMatchObject({ sender_id: 'self', sender_name: 'self', interface_path: 'telegram/1' });
  });

  it('keeps only the newest CHAT_HISTORY messages of the saved path', async () => {
    keep = 3;
    await history.save({ interface_path: 'other/1', message_text: 'untouched', timestamp: '2020-01-01T00:00:00Z' });
    for (let index = 0; index < 6; index += 1) {
      await history.save({ interface_path: 'telegram/1', message_text: `m${index}`, timestamp: `2024-01-01T00:00:0${index}.000001Z` });
    }
    expect((await history.load('telegram/1', { limit: 50 })).map((message) => message.text)).toEqual(['m3', 'm4', 'm5']);
    expect((await history.load('other/1')).map((message) => message.text)).toEqual(['untouched']);
  });

  it('keeps the newest by timestamp, not by arrival', async () => {
    keep = 2;
    await history.save({ interface_path: 'p/1', message_text: 'late', timestamp: '2024-01-01T00:00:03Z' });
    await history.save({ interface_path: 'p/1', message_text: 'middle', timestamp: '2024-01-01T00:00:02Z' });
    await history.save({ interface_path: 'p/1', message_text: 'early', timestamp: '2024-01-01T00:00:01Z' });
    expect((await history.load('p/1', { limit: 50 })).map((message) => message.text)).toEqual(['middle', 'late']);
  });

  it('treats a second save with the same path and timestamp as a no-op', async () => {
    const first = await history.save({ interface_path: 'p/1', message_text: 'one', timestamp: '2024-05-01T12:00:00.123456Z' });
    const again = await history.save({ interface_path: 'p/1', message_text: 'one again', timestamp: '2024-05-01T12:00:00.123456Z' });
    expect([first.status, again.status]).toEqual(['saved', 'duplicate']);
    expect((await history.load('p/1')).map((message) => message.text)).toEqual(['one']);
  });

  it('keeps microseconds and gives same-millisecond saves distinct timestamps', async () => {
    await history.save({ interface_path: 'p/1', message_text: 'exact', timestamp: '2024-05-01T14:00:00.654321+02:00' });
    expect((await history.load('p/1'))[0]?.timestamp).toBe('2024-05-01T12:00:00.654321Z');
    keep = 100;
    await Promise.all(Array.from({ length: 30 }, (_, index) => history.save({ interface_path: 'p/2', message_text: `burst ${index}` })));
    const burst = await history.load('p/2');
    expect(burst).toHaveLength(30);
    expect(new Set(burst.map((message) => message.timestamp)).size).toBe(30);
  });

  it('round-trips emoji and other non-BMP text, in text, sender and path', async () => {
    const text = 'ciao 👋🏽 família 家族 𝄞 🧑‍🚀';
    await history.save({ interface_path: 'webui/😀', message_text: text, sender_name: 'Zoë 🌸' });
    const [message] = await history.load('webui/😀');
    expect(message).toMatchObject({ text, username: 'Zoë 🌸' });
  });

  it('stores text longer than 64 KiB whole', async () => {
    const text = `${'€'.repeat(40_000)}${'a'.repeat(30_000)}🎉`;
    expect(Buffer.byteLength(text)).toBeGreaterThan(128 * 1024);
    await history.save({ interface_path: 'p/long', message_text: text });
    expect((await history.load('p/long'))[0]?.text).toBe(text);
  });

  it('clips sender name and id to 255 characters', async () => {
    await history.save({ interface_path: 'p/1', message_text: 'x', sender_name: '🙂'.repeat(300), sender_id: 'i'.repeat(300) });
    const [message] = await history.load('p/1');
    expect(Array.from(message?.sender_name ?? '')).toHaveLength(255);
    expect(message?.sender_id).toHaveLength(255);
  });

  it('addresses paths case-sensitively', async () => {
    await history.save({ interface_path: 'matrix/!Room', message_text: 'upper', timestamp: '2024-01-01T00:00:00Z' });
    await history.save({ interface_path: 'matrix/!room', message_text: 'lower', timestamp: '2024-01-01T00:00:00Z' });
    expect((await history.load('matrix/!Room')).map((message) => message.text)).toEqual(['upper']);
    expect((await history.load('matrix/!room')).map((message) => message.text)).toEqual(['lower']);
  });

  it('loads a guild across its paths, newest `limit` since a time, wildcards taken literally', async () => {
    const at = (second: number) => `2024-01-01T00:00:${String(second).padStart(2, '0')}Z`;
    await history.save({ interface_path: 'discord_42_1', message_text: 'a', timestamp: at(1) });
    await history.save({ interface_path: 'discord_42_2', message_text: 'b', timestamp: at(2) });
    await history.save({ interface_path: 'discord_42_1', message_text: 'c', timestamp: at(3) });
    await history.save({ interface_path: 'discord_421_1', message_text: 'other guild', timestamp: at(4) });
    await history.save({ interface_path: 'discord_4x2_1', message_text: 'wildcard bait', timestamp: at(5) });
    await history.save({ interface_path: 'Discord_42_1', message_text: 'other case', timestamp: at(6) });
    expect((await history.loadForGuild('42')).map((message) => message.text)).toEqual(['a', 'b', 'c']);
    expect((await history.loadForGuild('42', at(2))).map((message) => message.text)).toEqual(['b', 'c']);
    expect((await history.loadForGuild('42', undefined, 2)).map((message) => message.text)).toEqual(['b', 'c']);
    expect(await history.loadForGuild('4_2')).toEqual([]);
    expect(await history.loadForGuild('4%')).toEqual([]);
  });

  it('loads a guild over the Discord and Fluxer paths of the contract and the migrated prefix', async () => {
    const at = (second: number) => `2024-01-01T00:00:${String(second).padStart(2, '0')}Z`;
    await history.save({ interface_path: 'discord/42/7', message_text: 'channel', timestamp: at(1) });
    await history.save({ interface_path: 'discord_42_1', message_text: 'migrated', timestamp: at(2) });
    await history.save({ interface_path: 'fluxer/42/9', message_text: 'fluxer', timestamp: at(3) });
    await history.save({ interface_path: 'discord/42/8', message_text: 'thread', timestamp: at(4) });
    await history.save({ interface_path: 'discord/421/7', message_text: 'other guild', timestamp: at(5) });
    await history.save({ interface_path: 'discord/dm/42', message_text: 'a DM', timestamp: at(6) });
    await history.save({ interface_path: 'discord/42', message_text: 'no channel', timestamp: at(7) });
    expect((await history.loadForGuild('42')).map((message) => message.text)).toEqual(['channel', 'migrated', 'fluxer', 'thread']);
  });

  it('lists across all paths or one path, newest `limit` oldest first', async () => {
    await history.save({ interface_path: 'a/1', message_text: 'one', timestamp: '2024-01-01T00:00:01Z' });
    await history.save({ interface_path: 'b/1', message_text: 'two', timestamp: '2024-01-01T00:00:02Z' });
    await history.save({ interface_path: 'a/1', message_text: 'three', timestamp: '2024-01-01T00:00:03Z' });
    expect((await history.list({ limit: 2 })).map((message) => message.text)).toEqual(['two', 'three']);
    expect((await history.list({ limit: 10, interface_path: 'a/1' })).map((message) => message.text)).toEqual(['one', 'three']);
    expect((await history.list({ limit: 10, since: '2024-01-01T00:00:02Z' })).map((message) => message.text)).toEqual(['two', 'three']);
  });

  it('replaces and clears one conversation only', async () => {
    keep = 2;
    await history.save({ interface_path: 'a/1', message_text: 'old', timestamp: '2024-01-01T00:00:01Z' });
    await history.save({ interface_path: 'b/1', message_text: 'keep me' });
    await history.replace('a/1', [
      { text: 'r1', sender_id: '1', sender_name: 'Ann', timestamp: '2023-01-01T00:00:01.000001Z' },
      { text: 'r2', sender_id: 'self', sender_name: 'self', timestamp: '2023-01-01T00:00:02Z' },
      { text: 'r3', sender_id: '1', sender_name: 'Ann', timestamp: '2023-01-01T00:00:03Z' },
    ]);
    expect((await history.load('a/1', { limit: 50 })).map((message) => [message.text, message.role])).toEqual([
      ['r2', 'assistant'],
      ['r3', 'user'],
    ]);
    expect(await history.clear('a/1')).toBe(2);
    expect(await history.load('a/1')).toEqual([]);
    expect(await history.load('b/1')).toHaveLength(1);
  });

  it.runIf(dialect === 'mysql' && fast)('falls back to a client transaction when the save procedure is gone', async () => {
    keep = 2;
    await sql`DROP PROCEDURE ${sql.raw(SAVE_PROCEDURE)}`.execute(fresh.handle.db);
    for (const second of [1, 2, 3]) await history.save({ interface_path: 'p/1', message_text: `m${second}`, timestamp: `2024-01-01T00:00:0${second}Z` });
    expect((await history.load('p/1')).map((message) => message.text)).toEqual(['m2', 'm3']);
  });

  it('rejects an empty or over-long interface path', async () => {
    await expect(history.save({ interface_path: '', message_text: 'x' })).rejects.toThrow(/interface path/);
    await expect(history.save({ interface_path: 'p/'.padEnd(513, 'x'), message_text: 'x' })).rejects.toThrow(/interface path/);
  });
}

describeEachDialect('chat history repository and functions', (dialect) => contract(dialect, true));
describeEachDialect('chat history repository and functions, Kysely path only', (dialect) => contract(dialect, false));
