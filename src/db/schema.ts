/**
 * The one home of the database's table and row types (as immich keeps them): the Kysely table types the
 * queries are checked against, and the rows the repositories take and give back. Domain modules import
 * their row types from here; this file imports nothing of the application, so no cycle can run through it.
 * Migrations do not use it: they keep their own frozen copies (see src/db/migrations/index.ts).
 */
import type { Generated, Selectable } from 'kysely';

export type DialectName = 'sqlite' | 'mysql';

/** Entries saved through `POST /api/config`; the highest-precedence configuration layer. */
export interface ConfigEntriesTable {
  name: string;
  value: string;
  /** ISO 8601 UTC. */
  updated_at: string;
}

/** What happened on this installation: configuration changes, backups, restarts, component events. */
export interface ActivityLogTable {
  id: Generated<number>;
  /** ISO 8601 UTC; sorts as text. */
  created_at: string;
  kind: string;
  message: string;
  /** JSON text, or null. */
  data: string | null;
}

/** An activity_log row as the repository answers it, with `data` parsed back from its JSON text. */
export interface ActivityEntry {
  id: number;
  created_at: string;
  kind: string;
  message: string;
  data: unknown;
}

/** One message of one conversation; only the newest CHAT_HISTORY per interface_path are kept. */
export interface ChatHistoryTable {
  id: Generated<number>;
  /** `<interface>/<chat_id>[/<thread_id>]`, at most 512 characters. */
  interface_path: string;
  sender_name: string | null;
  sender_id: string | null;
  message_text: string;
  /** `YYYY-MM-DD HH:MM:SS.ffffff` UTC: DATETIME(6) read as text on MySQL, fixed-width text on SQLite. */
  timestamp: string;
}

export type ChatHistoryRow = Selectable<ChatHistoryTable>;

/** Every column but the id, nulls included: the SQLite fast path binds them positionally. */
export type NewChatHistoryRow = Omit<ChatHistoryRow, 'id'>;

export interface DiaryEntriesTable {
  id: Generated<number>;
  /** ISO 8601 UTC. */
  created_at: string;
  interface_path: string | null;
  text: string;
  /** JSON array of strings. */
  tags: string;
  /** 0 or 1. */
  archived: number;
}

/** A diary_entries row as the repository answers it: tags parsed, the archived flag a boolean. */
export interface DiaryEntry {
  id: number;
  created_at: string;
  interface_path: string | null;
  text: string;
  tags: string[];
  archived: boolean;
}

export interface NewDiaryEntry {
  text: string;
  interface_path?: string | null;
  tags?: string[];
  /** ISO 8601 UTC; defaults to now. */
  created_at?: string;
}

export interface ChatSessionMetaTable {
  interface_path: string;
  /** JSON object. */
  metadata: string;
  /** ISO 8601 UTC. */
  updated_at: string;
}

export type SessionMetaRow = Selectable<ChatSessionMetaTable>;

/** One queued outbound message of an integration source; cleared when the source reads its outbox. */
export interface IntegrationOutboxTable {
  id: Generated<number>;
  source: string;
  type: string;
  /** JSON object. */
  payload: string;
  /** JSON object. */
  metadata: string;
  /** ISO 8601 UTC. */
  created_at: string;
}

/** A non-chat integration message, stored for later retrieval. */
export interface IntegrationMessagesTable {
  /** UUID, the id answered by `POST /api/integrations/messages`. */
  id: string;
  source: string;
  type: string;
  payload: string;
  metadata: string;
  created_at: string;
}

/** An integration_outbox or integration_messages row as the repository answers it, JSON parsed. */
export interface IntegrationRecord {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  metadata: Record<string, unknown>;
  created_at: string;
}

export interface NewIntegrationRecord {
  source: string;
  type: string;
  payload: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

/** One human across platforms (contract "Memory"). */
export interface PeopleTable {
  id: Generated<number>;
  display_name: string;
  /** ISO 8601 UTC. */
  created_at: string;
}

/** A platform identity `<interface_id>:<user_id>`; each belongs to at most one person. */
export interface PersonIdentitiesTable {
  identity: string;
  person_id: number;
  created_at: string;
}

export type MemoryKind = 'profile' | 'fact' | 'episode';

/** Something remembered; a replaced memory keeps its row with `superseded_by` naming its successor. */
export interface MemoriesTable {
  id: Generated<number>;
  /** null for an episode of a conversation with several people. */
  person_id: number | null;
  kind: MemoryKind;
  /** A short key of what it is about (`sister_name`); a newer memory of the same person and topic replaces the older. */
  topic: string | null;
  text: string;
  /** 0..1. */
  importance: number;
  /** ISO 8601 UTC; sorts as text. */
  created_at: string;
  last_recalled_at: string | null;
  /** The conversation it was learned in. */
  source_path: string | null;
  /** 0 or 1. */
  pinned: number;
  superseded_by: number | null;
  /** Little-endian float32 vector of `embedding_model`, or null. */
  embedding: Uint8Array | null;
  embedding_model: string | null;
}

export type MemoryRow = Selectable<MemoriesTable>;

export interface Database {
  config_entries: ConfigEntriesTable;
  activity_log: ActivityLogTable;
  chat_history: ChatHistoryTable;
  diary_entries: DiaryEntriesTable;
  chat_session_meta: ChatSessionMetaTable;
  integration_outbox: IntegrationOutboxTable;
  integration_messages: IntegrationMessagesTable;
  people: PeopleTable;
  person_identities: PersonIdentitiesTable;
  memories: MemoriesTable;
}
