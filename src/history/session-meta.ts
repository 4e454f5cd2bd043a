import { z } from 'zod';
import type { SessionMetaRepository } from '../db/repositories/session-meta.ts';

/** Free-form metadata the web UI keeps for a conversation (a title, a persona, UI state). */
export const SessionMetadataSchema = z.record(z.string(), z.unknown());
export type SessionMetadata = z.infer<typeof SessionMetadataSchema>;

export interface SessionMetaRecord {
  metadata: SessionMetadata;
  /** ISO 8601 UTC, or null when nothing was ever set. */
  updated_at: string | null;
}

function parse(text: string): SessionMetadata {
  try {
    const parsed = SessionMetadataSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

export class SessionMeta {
  constructor(private readonly repository: SessionMetaRepository) {}

  async get(interfacePath: string): Promise<SessionMetaRecord> {
    const row = await this.repository.get(interfacePath);
    return row ? { metadata: parse(row.metadata), updated_at: row.updated_at } : { metadata: {}, updated_at: null };
  }

  /** Merges `patch` into the stored metadata key by key; a null value removes its key. */
  async update(interfacePath: string, patch: SessionMetadata): Promise<SessionMetaRecord> {
    const { metadata } = await this.get(interfacePath);
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) delete metadata[key];
      else metadata[key] = value;
    }
    return this.replace(interfacePath, metadata);
  }

  async replace(interfacePath: string, metadata: SessionMetadata): Promise<SessionMetaRecord> {
    const updatedAt = new Date().toISOString();
    await this.repository.put({ interface_path: interfacePath, metadata: JSON.stringify(metadata), updated_at: updatedAt });
    return { metadata, updated_at: updatedAt };
  }

  clear(interfacePath: string): Promise<void> {
    return this.repository.remove(interfacePath);
  }
}
