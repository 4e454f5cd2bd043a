import type { Migration } from 'kysely';
import type { DialectName } from '../schema.ts';
import { configEntries } from './0001-config-entries.ts';
import { activityLog } from './0002-activity-log.ts';
import { chatHistory } from './0003-chat-history.ts';
import { diaryEntries } from './0004-diary-entries.ts';
import { chatSessionMeta } from './0005-chat-session-meta.ts';
import { integrations } from './0006-integrations.ts';

/** Append-only: a released migration is never edited; a change is a new entry with the next number. */
export const migrationFactories: Record<string, (dialect: DialectName) => Migration> = {
  '0001-config-entries': configEntries,
  '0002-activity-log': activityLog,
  '0003-chat-history': chatHistory,
  '0004-diary-entries': diaryEntries,
  '0005-chat-session-meta': chatSessionMeta,
  '0006-integrations': integrations,
};
