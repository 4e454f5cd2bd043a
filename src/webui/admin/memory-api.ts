/** The Memory page's calls to `/api/memory*` and `/api/people*` (contract "Memory"), with readable failures. */
import type { Memory, MemoryKind, Person } from '../../memory/types.ts';
import { errorText } from '../dom.ts';
import { ApiError, apiJson, postJson } from '../net/api.ts';

export type { Memory, MemoryKind };
export type PersonEntry = Person & { memory_count: number };

/** How many memories one listing shows; the page says so when there may be more. */
export const LIST_LIMIT = 200;

/** The API's message with what each invalid field was told (zod's details), so the operator sees what to fix. */
export function describeFailure(error: unknown): string {
  if (!(error instanceof ApiError) || !Array.isArray(error.details)) return errorText(error);
  const reasons = (error.details as Array<{ path?: unknown; message?: unknown }>)
    .map((detail) => [String(detail.path ?? '').replace(/^\//, ''), String(detail.message ?? '')].filter(Boolean).join(': '))
    .filter(Boolean);
  return reasons.length > 0 ? `${error.message}: ${reasons.join('; ')}` : error.message;
}

async function readable<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw new Error(describeFailure(error));
  }
}

export interface MemoryQuery {
  q: string;
  personId: number | undefined;
}

export function listMemories(query: MemoryQuery): Promise<Memory[]> {
  const params = new URLSearchParams({ limit: String(LIST_LIMIT) });
  if (query.q.trim() !== '') params.set('q', query.q.trim());
  if (query.personId !== undefined) params.set('person_id', String(query.personId));
  return readable(apiJson<{ memories: Memory[] }>(`/api/memory?${params}`)).then((body) => body.memories);
}

export function listPeople(): Promise<PersonEntry[]> {
  return readable(apiJson<{ people: PersonEntry[] }>('/api/people')).then((body) => body.people);
}

export interface NewMemory {
  person_id: number | null;
  kind: MemoryKind;
  text: string;
  importance: number;
  pinned: boolean;
}

export function addMemory(memory: NewMemory): Promise<Memory> {
  return readable(postJson<Memory>('/api/memory', memory));
}

export function changeMemory(id: number, changes: Partial<Pick<Memory, 'text' | 'pinned'>>): Promise<Memory> {
  return readable(postJson<Memory>(`/api/memory/${id}`, changes, 'PATCH'));
}

export function deleteMemory(id: number): Promise<void> {
  return readable(apiJson<void>(`/api/memory/${id}`, { method: 'DELETE' }));
}

export function linkIdentity(identity: string, personId: number): Promise<Person> {
  return readable(postJson<{ person: Person }>('/api/people/link', { identity, person_id: personId })).then((body) => body.person);
}

export function forgetPerson(personId: number): Promise<number> {
  return readable(apiJson<{ deleted: number }>(`/api/people/${personId}/memories`, { method: 'DELETE' })).then((body) => body.deleted);
}
