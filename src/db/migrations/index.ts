import type { Migration } from 'kysely';
import { configEntries } from './0001-config-entries.ts';
import { activityLog } from './0002-activity-log.ts';
import { chatHistory } from './0003-chat-history.ts';
import { diaryEntries } from './0004-diary-entries.ts';
import { chatSessionMeta } from './0005-chat-session-meta.ts';
import { integrations } from './0006-integrations.ts';
import { memory } from './0007-memory.ts';
import type { MigrationDialect } from './table-options.ts';

/**
 * Append-only: a released migration is never edited; a change is a new entry with the next number. The
 * migrations import only kysely, node: built-ins and each other (test/db/migrations-frozen.test.ts checks):
 * what a migration did must not change when the live schema or domain code does.
 */
export const migrationFactories: Record<string, (dialect: MigrationDialect) => Migration> = {
  '0001-config-entries': configEntries,
  '0002-activity-log': activityLog,
  '0003-chat-history': chatHistory,
  '0004-diary-entries': diaryEntries,
  '0005-chat-session-meta': chatSessionMeta,
  '0006-integrations': integrations,
  '0007-memory': memory,
};
