import { beforeEach, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects.ts';
import { useTestApp } from '../helpers/services.ts';

describeEachDialect('history endpoints', (dialect) => {
  const subject = useTestApp({ dialect });

  beforeEach(async () => {
    const { chat } = subject.harness.services.history;
    await chat.save({ interface_path: 'telegram/1', message_text: 'first 🐣', sender_name: 'Ann', sender_id: '7', timestamp: '2024-01-01T00:00:01.000001Z' });
    await chat.saveOwn('telegram/1', 'second', '2024-01-01T00:00:02Z');
    await chat.save({ interface_path: 'webui/abc', message_text: 'third', sender_id: 'u1', timestamp: '2024-01-01T00:00:03Z' });
  });

  const get = (url: string) => subject.app.inject({ method: 'GET', url });

  it('GET /api/history/chat returns raw records oldest first in the contract shape', async () => {
    const response = await get('/api/history/chat');
    expect(response.statusCode).toBe(200);
    expect(response.json().messages).toEqual([
      { id: expect.any(Number), interface_path: 'telegram/1', username: 'Ann', sender_id: '7', text: 'first 🐣', timestamp: '2024-01-01T00:00:01.000001Z' },
      { id: expect.any(Number), interface_path: 'telegram/1', username: 'self', sender_id: 'self', text: 'second', timestamp: '2024-01-01T00:00:02.000000Z' },
      { id: expect.any(Number), interface_path: 'webui/abc', username: 'u1', sender_id: 'u1', text: 'third', timestamp: '2024-01-01T00:00:03.000000Z' },
    ]);
  });

  it('GET /api/history/chat filters by interface_path, limit and since', async () => {
    const texts = async (query: string) => ((await get(`/api/history/chat?${query}`)).json().messages as Array<{ text: string }>).map((m) => m.text);
    expect(await texts('interface_path=telegram%2F1')).toEqual(['first 🐣', 'second']);
    expect(await texts('limit=1')).toEqual(['third']);
    expect(await texts('interface_path=telegram%2F1&limit=1')).toEqual(['second']);
    expect(await texts('since=2024-01-01T00:00:02Z')).toEqual(['second', 'third']);
    expect(await texts('interface_path=nobody%2F1')).toEqual([]);
  });

  it('GET /api/history/activity lists activity entries newest first, with since and kind', async () => {
    await subject.harness.services.activity.add('config', 'CHAT_HISTORY changed', { key: 'CHAT_HISTORY' });
    await subject.harness.services.activity.add('database', 'backup written');
    const response = await get('/api/history/activity');
    expect(response.statusCode).toBe(200);
    expect(response.json().entries.map((entry: { message: string }) => entry.message)).toEqual(['backup written', 'CHAT_HISTORY changed']);
    expect((await get('/api/history/activity?kind=config')).json().entries).toEqual([
      { id: expect.any(Number), created_at: expect.any(String), kind: 'config', message: 'CHAT_HISTORY changed', data: { key: 'CHAT_HISTORY' } },
    ]);
    const future = await get('/api/history/activity?since=2999-01-01T00:00:00Z');
    expect(future.json()).toEqual({ entries: [] });
  });

  it('GET /api/history/diary includes archived entries, newest first, since a time', async () => {
    const { diary } = subject.harness.services.history;
    const old = await diary.add({ text: 'old', created_at: '2024-01-01T00:00:00.000Z' });
    await diary.add({ text: 'new', created_at: '2024-02-01T00:00:00.000Z' });
    await diary.setArchived([old.id], true);
    expect((await get('/api/history/diary')).json().entries.map((entry: { text: string; archived: boolean }) => [entry.text, entry.archived])).toEqual([
      ['new', false],
      ['old', true],
    ]);
    expect((await get('/api/history/diary?since=2024-01-15')).statusCode).toBe(400);
    expect((await get('/api/history/diary?since=2024-01-15T00:00:00%2B01:00')).json().entries.map((entry: { text: string }) => entry.text)).toEqual(['new']);
  });

  it('answers 400, never 500, for an invalid since or limit', async () => {
    for (const url of ['/api/history/chat', '/api/history/activity', '/api/history/diary']) {
      for (const query of [
        'since=yesterday',
        'since=2024-13-01T00:00:00Z',
        'since=2024-02-30T00:00:00Z',
        'since=',
        'limit=0',
        'limit=-5',
        'limit=abc',
        'limit=1.5',
        'limit=100000',
        'limit=',
      ]) {
        const response = await get(`${url}?${query}`);
        expect(response.statusCode, `${url}?${query}`).toBe(400);
        expect(response.json().error.code).toBe('invalid_request');
      }
    }
    expect((await get(`/api/history/chat?interface_path=${'x'.repeat(513)}`)).statusCode).toBe(400);
  });
});
