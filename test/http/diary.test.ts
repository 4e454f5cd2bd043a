import { beforeEach, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects.ts';
import { useTestApp } from '../helpers/services.ts';

describeEachDialect('diary endpoints', (dialect) => {
  const subject = useTestApp({ dialect });
  let ids: number[];

  beforeEach(async () => {
    const { diary } = subject.harness.services.history;
    ids = [];
    for (const [index, text] of ['morning walk 🌅', 'met Ann', 'rainy day'].entries()) {
      ids.push(
        (await diary.add({ text, tags: ['day'], interface_path: index === 1 ? 'telegram/1' : null, created_at: `2024-06-0${index + 1}T08:00:00.000Z` })).id,
      );
    }
  });

  const texts = async (url: string) =>
    ((await subject.app.inject({ method: 'GET', url })).json().entries as Array<{ text: string }>).map((entry) => entry.text);

  it('lists entries newest first in the contract shape', async () => {
    const response = await subject.app.inject({ method: 'GET', url: '/api/diary' });
    expect(response.statusCode).toBe(200);
    expect(response.json().entries[1]).toEqual({
      id: ids[1],
      created_at: '2024-06-02T08:00:00.000Z',
      interface_path: 'telegram/1',
      text: 'met Ann',
      tags: ['day'],
      archived: false,
    });
    expect(await texts('/api/diary')).toEqual(['rainy day', 'met Ann', 'morning walk 🌅']);
    expect(await texts('/api/diary?limit=1')).toEqual(['rainy day']);
  });

  it('archives, unarchives and deletes only archived entries', async () => {
    const archived = await subject.app.inject({ method: 'POST', url: '/api/diary/archive', payload: { ids: [ids[0], ids[1], 9999] } });
    expect(archived.json()).toEqual({ success: true, updated: 2 });
    expect(await texts('/api/diary?archived=true')).toEqual(['met Ann', 'morning walk 🌅']);
    expect(await texts('/api/diary?archived=false')).toEqual(['rainy day']);
    expect((await subject.app.inject({ method: 'POST', url: '/api/diary/unarchive', payload: { ids: [ids[1]] } })).json()).toEqual({
      success: true,
      updated: 1,
    });
    const deleted = await subject.app.inject({ method: 'DELETE', url: '/api/diary/archive', payload: { ids: [ids[0], ids[2]] } });
    expect(deleted.json()).toEqual({ success: true, deleted: 1 });
    expect(await texts('/api/diary')).toEqual(['rainy day', 'met Ann']);
  });

  it('deletes every archived entry when no ids are sent', async () => {
    await subject.app.inject({ method: 'POST', url: '/api/diary/archive', payload: { ids: [ids[0], ids[2]] } });
    expect((await subject.app.inject({ method: 'DELETE', url: '/api/diary/archive' })).json()).toEqual({ success: true, deleted: 2 });
    expect(await texts('/api/diary')).toEqual(['met Ann']);
  });

  it('rejects bad selections and filters with 400', async () => {
    for (const payload of [{}, { ids: [] }, { ids: ['1'] }, { ids: [1.5] }, { ids: [-1] }]) {
      const response = await subject.app.inject({ method: 'POST', url: '/api/diary/archive', payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.code).toBe('invalid_request');
    }
    expect((await subject.app.inject({ method: 'POST', url: '/api/diary/unarchive', payload: { ids: 'all' } })).statusCode).toBe(400);
    expect((await subject.app.inject({ method: 'DELETE', url: '/api/diary/archive', payload: { ids: [0] } })).statusCode).toBe(400);
    expect((await subject.app.inject({ method: 'GET', url: '/api/diary?archived=maybe' })).statusCode).toBe(400);
    expect((await subject.app.inject({ method: 'GET', url: '/api/diary?limit=0' })).statusCode).toBe(400);
  });
});
