import { beforeEach, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects.ts';
import { useTestApp } from '../helpers/services.ts';

describeEachDialect('memory endpoints', (dialect) => {
  const subject = useTestApp({ dialect });
  let ann: number;
  let bob: number;

  beforeEach(async () => {
    const { memory } = subject.harness.services;
    ann = (await memory.personFor('telegram_bot:1', 'Ann')).id;
    bob = (await memory.personFor('discord:2', 'Bob')).id;
  });

  const inject = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    subject.app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  const texts = async (url: string) => ((await inject('GET', url)).json().memories as Array<{ text: string }>).map((memory) => memory.text);

  it('creates, lists, searches, edits and deletes memories in the contract shape', async () => {
    const created = await inject('POST', '/api/memory', { person_id: ann, kind: 'fact', text: 'Ann is learning the cello', importance: 0.8 });
    expect(created.statusCode).toBe(201);
    const memory = created.json();
    expect(memory).toEqual({
      id: expect.any(Number),
      person_id: ann,
      kind: 'fact',
      topic: null,
      text: 'Ann is learning the cello',
      importance: 0.8,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      last_recalled_at: null,
      source_path: null,
      pinned: false,
      superseded_by: null,
    });
    await inject('POST', '/api/memory', { person_id: bob, kind: 'profile', text: 'Bob lives in Oslo', pinned: true });
    await inject('POST', '/api/memory', { kind: 'episode', text: 'A group chat about cello concerts', source_path: 'discord/g/c' });
    expect(await texts('/api/memory')).toEqual(['Bob lives in Oslo', 'A group chat about cello concerts', 'Ann is learning the cello']);
    expect(await texts(`/api/memory?person_id=${ann}`)).toEqual(['Ann is learning the cello']);
    expect((await texts('/api/memory?q=cello')).sort()).toEqual(['A group chat about cello concerts', 'Ann is learning the cello']);
    expect(await texts('/api/memory?limit=1')).toEqual(['Bob lives in Oslo']);

    const patched = await inject('PATCH', `/api/memory/${memory.id}`, { text: 'Ann is learning the viola', pinned: true });
    expect(patched.json()).toMatchObject({ id: memory.id, text: 'Ann is learning the viola', pinned: true });
    expect(await texts('/api/memory?q=cello')).toEqual(['A group chat about cello concerts']);

    expect((await inject('DELETE', `/api/memory/${memory.id}`)).statusCode).toBe(204);
    expect(await texts(`/api/memory?person_id=${ann}`)).toEqual([]);
    expect((await inject('DELETE', `/api/memory/${memory.id}`)).json().error.code).toBe('not_found');
    expect((await inject('PATCH', `/api/memory/${memory.id}`, { pinned: false })).statusCode).toBe(404);
  });

  it('refuses malformed requests with the contract error shape', async () => {
    const cases: Array<[Parameters<typeof inject>, number, string]> = [
      [['POST', '/api/memory', { kind: 'dream', text: 'x' }], 400, 'invalid_request'],
      [['POST', '/api/memory', { kind: 'fact', text: '   ' }], 400, 'invalid_request'],
      [['POST', '/api/memory', { kind: 'fact', text: 'x', importance: 3 }], 400, 'invalid_request'],
      [['POST', '/api/memory', { kind: 'fact', text: 'x', person_id: 9999 }], 404, 'not_found'],
      [['PATCH', '/api/memory/1', {}], 400, 'invalid_request'],
      [['PATCH', '/api/memory/abc', { pinned: true }], 400, 'invalid_request'],
      [['GET', '/api/memory?limit=0'], 400, 'invalid_request'],
      [['GET', '/api/memory?person_id=x'], 400, 'invalid_request'],
      [['POST', '/api/people/link', { identity: 'no-colon', person_id: ann }], 400, 'invalid_request'],
      [['POST', '/api/people/link', { identity: 'matrix:@a:x', person_id: 9999 }], 404, 'not_found'],
      [['DELETE', '/api/people/9999/memories'], 404, 'not_found'],
    ];
    for (const [request, status, code] of cases) {
      const response = await inject(...request);
      expect([request[0], request[1], response.statusCode, response.json().error?.code]).toEqual([request[0], request[1], status, code]);
    }
  });

  it('lists people with their identities, links an identity and merges the person it leaves', async () => {
    await inject('POST', '/api/memory', { person_id: bob, kind: 'fact', text: 'Bob bakes bread' });
    const linked = await inject('POST', '/api/people/link', { identity: 'discord:2', person_id: ann });
    expect(linked.json().person).toMatchObject({ id: ann, display_name: 'Ann', identities: ['discord:2', 'telegram_bot:1'] });
    const people = (await inject('GET', '/api/people')).json().people;
    expect(people).toEqual([{ id: ann, display_name: 'Ann', created_at: expect.any(String), identities: ['discord:2', 'telegram_bot:1'], memory_count: 1 }]);
    expect((await inject('PATCH', `/api/people/${ann}`, { display_name: 'Annie' })).json().person.display_name).toBe('Annie');
  });

  it("forgets one person's memories and exports everything as a JSON download", async () => {
    await inject('POST', '/api/memory', { person_id: ann, kind: 'fact', text: 'Ann likes tea' });
    await inject('POST', '/api/memory', { person_id: bob, kind: 'fact', text: 'Bob likes coffee' });
    expect((await inject('DELETE', `/api/people/${ann}/memories`)).json()).toEqual({ deleted: 1 });
    const exported = await inject('GET', '/api/memory/export');
    expect(exported.headers['content-disposition']).toMatch(/^attachment; filename="anima-memory-\d{4}-\d\d-\d\d\.json"$/);
    const body = exported.json();
    expect(body.memories.map((memory: { text: string }) => memory.text)).toEqual(['Bob likes coffee']);
    expect(body.people.map((person: { display_name: string }) => person.display_name)).toEqual(['Ann', 'Bob']);
  });
});

describe('memory endpoints without trust', () => {
  const subject = useTestApp({ environment: { APP_TRUST_LOOPBACK: 'false', APP_API_KEY: 'memory-key' } });

  it('refuses every memory route to a caller without the key', async () => {
    const routes: Array<['GET' | 'POST' | 'PATCH' | 'DELETE', string]> = [
      ['GET', '/api/memory'],
      ['POST', '/api/memory'],
      ['GET', '/api/memory/export'],
      ['PATCH', '/api/memory/1'],
      ['DELETE', '/api/memory/1'],
      ['GET', '/api/people'],
      ['POST', '/api/people/link'],
      ['PATCH', '/api/people/1'],
      ['DELETE', '/api/people/1/memories'],
    ];
    for (const [method, url] of routes) {
      const response = await subject.app.inject({ method, url, ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }) });
      expect([method, url, response.statusCode, response.json().error.code]).toEqual([method, url, 401, 'unauthorized']);
    }
    const keyed = await subject.app.inject({ method: 'GET', url: '/api/memory', headers: { 'x-api-key': 'memory-key' } });
    expect(keyed.statusCode).toBe(200);
  });
});
