import { beforeAll, beforeEach, expect, it } from 'vitest';
import type { DialectName } from '../../src/db/schema.ts';
import { MemoryStore, UnknownPersonError } from '../../src/memory/memory-store.ts';
import { describeEachDialect, useFreshDatabase } from '../helpers/dialects.ts';

describeEachDialect('the memory store', (dialect: DialectName) => {
  const fresh = useFreshDatabase(dialect, 'suite');
  let store: MemoryStore;
  let now = new Date('2026-01-01T10:00:00.000Z');

  beforeAll(async () => {
    store = new MemoryStore(fresh.handle, () => now);
  });
  beforeEach(async () => {
    now = new Date('2026-01-01T10:00:00.000Z');
    await fresh.handle.db.deleteFrom('memories').execute();
    await fresh.handle.db.deleteFrom('person_identities').execute();
    await fresh.handle.db.deleteFrom('people').execute();
  });

  it('gives a sender never seen before a person of their own, and the same person after', async () => {
    const first = await store.personFor('telegram_bot:42', 'Sam');
    const again = await store.personFor('telegram_bot:42', 'Samuel');
    const other = await store.personFor('discord:42', 'Sam');
    expect(again).toEqual(first);
    expect(first).toMatchObject({ display_name: 'Sam', identities: ['telegram_bot:42'] });
    expect(other.id).not.toBe(first.id);
  });

  it('makes one person of two first messages at once', async () => {
    const people = await Promise.all([store.personFor('matrix:@a:x', 'A'), store.personFor('matrix:@a:x', 'A')]);
    expect(people[0].id).toBe(people[1].id);
    expect(await store.listPeople()).toHaveLength(1);
  });

  it('links an identity to a person and merges the person it leaves without identities', async () => {
    const sam = await store.personFor('telegram_bot:42', 'Sam');
    const web = await store.personFor('webui:operator', 'operator');
    await store.remember({ person_id: web.id, kind: 'fact', text: 'Sam bakes bread on Sundays', topic: 'baking' });
    const linked = await store.link('webui:operator', sam.id);
    expect(linked.identities).toEqual(['telegram_bot:42', 'webui:operator']);
    expect(await store.person(web.id)).toBeUndefined();
    expect((await store.list({ personId: sam.id, limit: 10 })).map((memory) => memory.text)).toEqual(['Sam bakes bread on Sundays']);
    await expect(store.link('webui:operator', 9999)).rejects.toBeInstanceOf(UnknownPersonError);
  });

  it('keeps the same memory once, raising its importance', async () => {
    const person = await store.personFor('discord:1', 'Ann');
    const first = await store.remember({ person_id: person.id, kind: 'profile', text: 'Ann has a  cat', topic: 'pet', importance: 0.4 });
    const again = await store.remember({ person_id: person.id, kind: 'profile', text: 'Ann has a cat', topic: 'pet', importance: 0.9 });
    expect([first.outcome, again.outcome]).toEqual(['created', 'duplicate']);
    expect(await store.list({ personId: person.id, limit: 10 })).toEqual([
      expect.objectContaining({ id: first.memory.id, text: 'Ann has a cat', importance: 0.9 }),
    ]);
  });

  it('replaces a contradicted memory by the newer one and keeps the older as history', async () => {
    const person = await store.personFor('discord:1', 'Ann');
    const old = await store.remember({ person_id: person.id, kind: 'fact', text: 'Ann is learning the violin', topic: 'instrument', pinned: true });
    now = new Date('2026-01-02T10:00:00.000Z');
    const newer = await store.remember({ person_id: person.id, kind: 'fact', text: 'Ann is learning the cello', topic: 'instrument' });
    expect(newer.outcome).toBe('replaced');
    expect(newer.memory.pinned).toBe(true);
    expect((await store.list({ personId: person.id, limit: 10 })).map((memory) => memory.text)).toEqual(['Ann is learning the cello']);
    const history = await store.list({ personId: person.id, limit: 10, includeHistory: true });
    expect(history.find((memory) => memory.id === old.memory.id)?.superseded_by).toBe(newer.memory.id);
    expect((await store.list({ q: 'violin', limit: 10 })).map((memory) => memory.text)).toEqual([]);
  });

  it('finds memories by their words, within the person and the episodes of the conversation', async () => {
    const ann = await store.personFor('discord:1', 'Ann');
    const bob = await store.personFor('discord:2', 'Bob');
    await store.remember({ person_id: ann.id, kind: 'fact', text: 'Ann is learning the cello with a teacher called Marta' });
    await store.remember({ person_id: ann.id, kind: 'profile', text: 'Ann lives in Turin' });
    await store.remember({ person_id: bob.id, kind: 'fact', text: 'Bob plays the cello in an orchestra' });
    await store.remember({ person_id: null, kind: 'episode', text: 'The group planned a cello concert outing', source_path: 'discord/g/c' });
    await store.remember({ person_id: null, kind: 'episode', text: 'Another group talked about cello strings', source_path: 'discord/g/other' });
    const found = await store.candidates({ personId: ann.id, conversationPath: 'discord/g/c' }, 'How is the cello going?');
    const matched = found.filter((memory) => memory.relevance > 0).map((memory) => memory.text);
    expect(matched.sort()).toEqual(['Ann is learning the cello with a teacher called Marta', 'The group planned a cello concert outing']);
    // The profile comes along whatever is asked.
    expect(found.find((memory) => memory.text === 'Ann lives in Turin')?.relevance).toBe(0);
  });

  it('deletes a memory with the versions it replaced, so none of them is found again', async () => {
    const person = await store.personFor('discord:1', 'Ann');
    await store.remember({ person_id: person.id, kind: 'fact', text: 'Ann works at the bakery', topic: 'job' });
    const newer = await store.remember({ person_id: person.id, kind: 'fact', text: 'Ann works at the library', topic: 'job' });
    expect(await store.delete(newer.memory.id)).toBe(true);
    expect(await store.delete(newer.memory.id)).toBe(false);
    expect(await store.list({ personId: person.id, limit: 10, includeHistory: true })).toEqual([]);
    expect(await store.candidates({ personId: person.id, conversationPath: 'discord/1' }, 'where does Ann work? bakery library')).toEqual([]);
  });

  it('forgets everything of one person and nothing of anyone else', async () => {
    const ann = await store.personFor('discord:1', 'Ann');
    const bob = await store.personFor('discord:2', 'Bob');
    await store.remember({ person_id: ann.id, kind: 'fact', text: 'Ann likes tea', topic: 'drink' });
    await store.remember({ person_id: ann.id, kind: 'fact', text: 'Ann likes coffee', topic: 'drink' });
    await store.remember({ person_id: bob.id, kind: 'fact', text: 'Bob likes tea' });
    expect(await store.forgetPerson(ann.id)).toBe(2);
    expect(await store.list({ limit: 10, includeHistory: true })).toEqual([expect.objectContaining({ text: 'Bob likes tea' })]);
    expect(await store.person(ann.id)).toBeDefined();
  });

  it('edits in place, refuses an unknown person and exports everything with the history', async () => {
    const ann = await store.personFor('discord:1', 'Ann');
    const created = await store.create({ person_id: ann.id, kind: 'fact', text: 'Ann has two brothers' });
    const edited = await store.update(created.id, { text: 'Ann has three brothers', pinned: true, importance: 2 });
    expect(edited).toMatchObject({ text: 'Ann has three brothers', pinned: true, importance: 1 });
    expect(await store.update(9999, { pinned: true })).toBeUndefined();
    await expect(store.create({ person_id: 9999, kind: 'fact', text: 'x' })).rejects.toBeInstanceOf(UnknownPersonError);
    expect((await store.list({ q: 'three brothers', limit: 5 })).map((memory) => memory.id)).toEqual([created.id]);
    const exported = await store.export();
    expect(exported.people).toEqual([expect.objectContaining({ id: ann.id, identities: ['discord:1'] })]);
    expect(exported.memories).toEqual([expect.objectContaining({ id: created.id, text: 'Ann has three brothers' })]);
  });

  it('keeps vectors of a model for similarity', async () => {
    const ann = await store.personFor('discord:1', 'Ann');
    const { memory } = await store.remember({ person_id: ann.id, kind: 'fact', text: 'Ann hikes' });
    await store.setEmbedding(memory.id, 'tiny', Float32Array.from([0.5, -1, 2]));
    const vectors = await store.vectors({ personId: ann.id, conversationPath: 'discord/1' }, 'tiny');
    expect([...vectors.entries()].map(([id, vector]) => [id, [...vector]])).toEqual([[memory.id, [0.5, -1, 2]]]);
    expect((await store.vectors({ personId: ann.id, conversationPath: 'discord/1' }, 'other')).size).toBe(0);
  });
});
