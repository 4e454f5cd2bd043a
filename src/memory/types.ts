import type { MemoryKind } from '../db/schema.ts';

export type { MemoryKind };
export const MEMORY_KINDS = ['profile', 'fact', 'episode'] as const satisfies readonly MemoryKind[];

/** A memory as the API and components see it (contract "Memory"); `superseded_by` is set on history. */
export interface Memory {
  id: number;
  person_id: number | null;
  kind: MemoryKind;
  topic: string | null;
  text: string;
  /** 0..1. */
  importance: number;
  created_at: string;
  last_recalled_at: string | null;
  source_path: string | null;
  pinned: boolean;
  superseded_by: number | null;
}

/** A memory found for a question: `relevance` is the full-text score (higher is better, 0 when it was not matched). */
export interface MemoryCandidate extends Memory {
  relevance: number;
}

export interface Person {
  id: number;
  display_name: string;
  created_at: string;
  /** `<interface_id>:<user_id>`, sorted. */
  identities: string[];
}

export interface NewMemory {
  person_id: number | null;
  kind: MemoryKind;
  text: string;
  topic?: string | null;
  importance?: number;
  pinned?: boolean;
  source_path?: string | null;
}

export interface MemoryChanges {
  person_id?: number | null;
  kind?: MemoryKind;
  text?: string;
  topic?: string | null;
  importance?: number;
  pinned?: boolean;
}

/** What `remember` did: a new memory, the same one again (importance raised), or a newer version of a topic. */
export type RememberOutcome = 'created' | 'duplicate' | 'replaced';

/** Where to look for memories for one message: the sender's own and the conversation's episodes. */
export interface RecallScope {
  personId: number;
  conversationPath: string;
}
