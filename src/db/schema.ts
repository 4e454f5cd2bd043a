import type { Generated } from 'kysely';

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

export interface Database {
  config_entries: ConfigEntriesTable;
  activity_log: ActivityLogTable;
}
