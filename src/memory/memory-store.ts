import type { DatabaseHandle } from '../db/dialect.ts';
import { MemoriesRepository, type StoredMemory } from '../db/repositories/memories.ts';
import { PeopleRepository, type PersonRow } from '../db/repositories/people.ts';
import { searchTerms } from './search-terms.ts';
import type { Memory, MemoryCandidate, MemoryChanges, NewMemory, Person, RecallScope, RememberOutcome } from './types.ts';

export class UnknownPersonError extends Error {}

const toMemory = (row: StoredMemory): Memory => ({ ...row, pinned: row.pinned === 1 });
const tidy = (text: string) => text.trim().replace(/\s+/g, ' ');
const clampImportance = (value: number | undefined) => Math.min(1, Math.max(0, value ?? 0.5));

export interface ListOptions {
  personId?: number;
  /** Full-text search; best match first instead of pinned, then newest. */
  q?: string;
  includeHistory?: boolean;
  limit: number;
}

/** How many of each source a recall considers before ranking. */
export interface CandidateLimits {
  matches: number;
  standing: number;
  episodes: number;
}

const DEFAULT_LIMITS: CandidateLimits = { matches: 40, standing: 20, episodes: 3 };

/**
 * Long-term memory over the database: people and their identities, memories with their history, search.
 * Shared by the HTTP API and the memory plugin (its `memory` service); `now` is injectable for tests.
 */
export class MemoryStore {
  private readonly people: PeopleRepository;
  private readonly memories: MemoriesRepository;

  constructor(
    database: Pick<DatabaseHandle, 'db' | 'dialect'>,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.people = new PeopleRepository(database.db, database.dialect);
    this.memories = new MemoriesRepository(database.db, database.dialect);
  }

  private stamp(): string {
    return this.now().toISOString();
  }

  private async withIdentities(row: PersonRow): Promise<Person> {
    return { ...row, identities: await this.people.identitiesOf(row.id) };
  }

  /** The person of a platform identity; a sender never seen before gets a person of their own. */
  async personFor(identity: string, displayName: string): Promise<Person> {
    return this.withIdentities(await this.people.ensure(identity, tidy(displayName).slice(0, 255) || identity, this.stamp()));
  }

  async person(id: number): Promise<Person | undefined> {
    const row = await this.people.get(id);
    return row ? this.withIdentities(row) : undefined;
  }

  async listPeople(): Promise<Array<Person & { memory_count: number }>> {
    const [rows, identities, counts] = await Promise.all([this.people.list(), this.people.identities(), this.memories.countByPerson()]);
    return rows.map((row) => ({
      ...row,
      identities: identities.filter((entry) => entry.person_id === row.id).map((entry) => entry.identity),
      memory_count: counts.get(row.id) ?? 0,
    }));
  }

  /**
   * Gives `identity` to person `personId`. The person that held it before, left with no identity, is
   * merged into the new one: its memories move over and it is removed.
   */
  async link(identity: string, personId: number): Promise<Person> {
    if (!(await this.people.get(personId))) throw new UnknownPersonError(`No person ${personId}`);
    const previous = await this.people.assignIdentity(identity, personId, this.stamp());
    if (previous !== undefined && previous !== personId && (await this.people.identitiesOf(previous)).length === 0) {
      await this.memories.reassign(previous, personId);
      await this.people.delete(previous);
    }
    return (await this.person(personId)) as Person;
  }

  async renamePerson(id: number, displayName: string): Promise<Person | undefined> {
    if (!(await this.people.get(id))) return undefined;
    await this.people.rename(id, tidy(displayName));
    return this.person(id);
  }

  /** Deletes every memory of the person, history included; the person and identities stay (they may write again). */
  async forgetPerson(personId: number): Promise<number> {
    return this.memories.deleteOfPerson(personId);
  }

  async get(id: number): Promise<Memory | undefined> {
    const row = await this.memories.get(id);
    return row ? toMemory(row) : undefined;
  }

  async list(options: ListOptions): Promise<Memory[]> {
    const filter = {
      limit: options.limit,
      ...(options.personId === undefined ? {} : { personId: options.personId }),
      ...(options.includeHistory ? { includeHistory: true } : {}),
    };
    if (options.q !== undefined && options.q.trim() !== '') {
      return (await this.memories.search(searchTerms(options.q), filter)).map(({ relevance: _relevance, ...row }) => toMemory(row));
    }
    return (await this.memories.list(filter)).map(toMemory);
  }

  /** Stores a memory as it is (the API's create): no merging. */
  async create(memory: NewMemory): Promise<Memory> {
    if (memory.person_id !== null && !(await this.people.get(memory.person_id))) throw new UnknownPersonError(`No person ${memory.person_id}`);
    const id = await this.memories.insert({
      person_id: memory.person_id,
      kind: memory.kind,
      topic: memory.topic ?? null,
      text: tidy(memory.text),
      importance: clampImportance(memory.importance),
      created_at: this.stamp(),
      last_recalled_at: null,
      source_path: memory.source_path ?? null,
      pinned: memory.pinned ? 1 : 0,
      superseded_by: null,
      embedding: null,
      embedding_model: null,
    });
    return (await this.get(id)) as Memory;
  }

  /**
   * Stores what was learned, merged with what is known: the same text again only raises the importance;
   * a newer memory of a known topic replaces the older, which stays as history (`superseded_by`).
   */
  async remember(memory: NewMemory): Promise<{ memory: Memory; outcome: RememberOutcome }> {
    const text = tidy(memory.text);
    if (memory.person_id === null) return { memory: await this.create(memory), outcome: 'created' };
    const known = await this.memories.current(memory.person_id, { topic: memory.topic ?? null, text, kind: memory.kind });
    if (known && known.text === text && known.kind === memory.kind) {
      const importance = Math.max(known.importance, clampImportance(memory.importance));
      await this.memories.update(known.id, { importance });
      return { memory: toMemory({ ...known, importance }), outcome: 'duplicate' };
    }
    const created = await this.create({ ...memory, text, pinned: Boolean(memory.pinned) || known?.pinned === 1 });
    if (!known) return { memory: created, outcome: 'created' };
    await this.memories.update(known.id, { superseded_by: created.id });
    return { memory: created, outcome: 'replaced' };
  }

  /** Changes a memory in place (an operator's correction); undefined when there is none. */
  async update(id: number, changes: MemoryChanges): Promise<Memory | undefined> {
    if (!(await this.memories.get(id))) return undefined;
    if (changes.person_id !== undefined && changes.person_id !== null && !(await this.people.get(changes.person_id))) {
      throw new UnknownPersonError(`No person ${changes.person_id}`);
    }
    const { pinned, text, importance, ...rest } = changes;
    await this.memories.update(id, {
      ...rest,
      ...(text === undefined ? {} : { text: tidy(text), embedding: null, embedding_model: null }),
      ...(importance === undefined ? {} : { importance: clampImportance(importance) }),
      ...(pinned === undefined ? {} : { pinned: pinned ? 1 : 0 }),
    });
    return this.get(id);
  }

  /** Deletes a memory and the older versions it replaced, so none of them comes back; false when there is none. */
  async delete(id: number): Promise<boolean> {
    if (!(await this.memories.get(id))) return false;
    await this.memories.delete(await this.memories.withHistory([id]));
    return true;
  }

  /**
   * What might be worth recalling for `text` in `scope`: the full-text matches among the person's memories
   * and the conversation's episodes, the person's pinned and profile memories, the conversation's latest
   * episodes; each once, with its relevance (0 when it did not match the words).
   */
  async candidates(scope: RecallScope, text: string, limits: CandidateLimits = DEFAULT_LIMITS): Promise<MemoryCandidate[]> {
    const [matches, standing, episodes] = await Promise.all([
      this.memories.search(searchTerms(text), { personId: scope.personId, conversationPath: scope.conversationPath, limit: limits.matches }),
      this.memories.standing(scope.personId, limits.standing),
      this.memories.episodes(scope.conversationPath, limits.episodes),
    ]);
    const found = new Map<number, MemoryCandidate>();
    for (const row of matches) found.set(row.id, { ...toMemory(row), relevance: row.relevance });
    for (const row of [...standing, ...episodes]) if (!found.has(row.id)) found.set(row.id, { ...toMemory(row), relevance: 0 });
    return [...found.values()];
  }

  /** Memories of the scope with a stored vector of `model`. */
  async vectors(scope: RecallScope, model: string, limit = 500): Promise<Map<number, Float32Array>> {
    return new Map((await this.memories.embeddedIn(scope, model, limit)).map(({ id, vector }) => [id, vector]));
  }

  async setEmbedding(id: number, model: string, vector: Float32Array): Promise<void> {
    await this.memories.setEmbedding(id, model, vector);
  }

  async getMany(ids: number[]): Promise<Memory[]> {
    return (await this.memories.getMany(ids)).map(toMemory);
  }

  /** Recalled into a prompt now: a used fact stops fading. */
  async markRecalled(ids: number[]): Promise<void> {
    await this.memories.markRecalled(ids, this.stamp());
  }

  /** Everything remembered, history included, with the people: the JSON export. */
  async export(): Promise<{ exported_at: string; people: Person[]; memories: Memory[] }> {
    const people = (await this.listPeople()).map(({ memory_count: _count, ...person }) => person);
    return { exported_at: this.stamp(), people, memories: (await this.memories.all()).map(toMemory) };
  }
}
