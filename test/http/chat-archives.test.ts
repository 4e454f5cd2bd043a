import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { HistoryRestoredEvent } from '../../src/history/chat-archives.ts';
import { describeEachDialect } from '../helpers/dialects.ts';
import { useTestApp } from '../helpers/services.ts';

describeEachDialect('chat archives and session metadata over HTTP', (dialect) => {
  const subject = useTestApp({ dialect });
  let path: string;

  const archiveDir = () => join(subject.harness.services.paths.backups, 'chat_archives');
  const say = (text: string, sender = 'Ann') =>
    subject.harness.services.history.chat.save({ interface_path: path, message_text: text, sender_name: sender, sender_id: sender === 'self' ? 'self' : '7' });
  const current = async () => (await subject.harness.services.history.chat.load(path)).map((message) => message.text);

  beforeEach(async () => {
    path = subject.harness.services.history.sessions.connect().interface_path;
  });

  it('archives the current chat into a JSON file and clears it', async () => {
    await say('hello 👋');
    await say('hi!', 'self');
    const response = await subject.app.inject({ method: 'POST', url: '/api/chat/archive' });
    expect(response.statusCode).toBe(200);
    const { success, archive_id: id } = response.json();
    expect(success).toBe(true);
    expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(await readdir(archiveDir())).toEqual([`${id}.json`]);
    expect(await current()).toEqual([]);
    const list = (await subject.app.inject({ method: 'GET', url: '/api/chat/archives' })).json();
    expect(list.archives).toEqual([
      { archive_id: id, name: expect.stringMatching(/^Chat of /), created_at: expect.any(String), message_count: 2, interface_path: path },
    ]);
  });

  it('answers an archive of an empty chat with success false and no file', async () => {
    const response = await subject.app.inject({ method: 'POST', url: '/api/chat/archive' });
    expect(response.json()).toEqual({ success: false, archive_id: null });
    expect((await subject.app.inject({ method: 'GET', url: '/api/chat/archives' })).json()).toEqual({ archives: [] });
  });

  it('downloads, renames and deletes an archive', async () => {
    await say('keep this');
    const id = (await subject.app.inject({ method: 'POST', url: '/api/chat/archive' })).json().archive_id as string;
    const download = await subject.app.inject({ method: 'GET', url: `/api/chat/archives/${id}` });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toBe(`attachment; filename="${id}.json"`);
    expect(download.json()).toMatchObject({ archive_id: id, messages: [{ text: 'keep this', username: 'Ann', role: 'user' }] });

    const renamed = await subject.app.inject({ method: 'POST', url: `/api/chat/archives/${id}/rename`, payload: { name: '  ../../etc/passwd 🗂️ ' } });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ success: true, archive_id: id, name: '../../etc/passwd 🗂️', message_count: 1 });
    expect(await readdir(archiveDir())).toEqual([`${id}.json`]);
    expect((await subject.app.inject({ method: 'GET', url: '/api/chat/archives' })).json().archives[0].name).toBe('../../etc/passwd 🗂️');

    expect((await subject.app.inject({ method: 'DELETE', url: `/api/chat/archives/${id}` })).json()).toEqual({ success: true, archive_id: id });
    expect(await readdir(archiveDir())).toEqual([]);
    expect((await subject.app.inject({ method: 'DELETE', url: `/api/chat/archives/${id}` })).statusCode).toBe(404);
  });

  it('restores an archive after archiving the current chat, and tells the listeners', async () => {
    await say('old conversation');
    await subject.app.inject({ method: 'POST', url: '/api/chat/session_meta', payload: { title: 'Old times' } });
    const oldId = (await subject.app.inject({ method: 'POST', url: '/api/chat/archive' })).json().archive_id as string;
    await say('new conversation');
    const events: HistoryRestoredEvent[] = [];
    subject.harness.services.history.archives.on('history_restored', (event) => events.push(event));

    const response = await subject.app.inject({ method: 'POST', url: '/api/chat/restore', payload: { archive_id: oldId } });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({ success: true, restored: 1, archived_current: expect.any(String) });
    expect(await current()).toEqual(['old conversation']);
    expect((await subject.app.inject({ method: 'GET', url: '/api/chat/session_meta' })).json().metadata).toEqual({ title: 'Old times' });
    const archived = JSON.parse(await readFile(join(archiveDir(), `${body.archived_current}.json`), 'utf8'));
    expect(archived.messages.map((message: { text: string }) => message.text)).toEqual(['new conversation']);
    expect(events).toEqual([
      {
        interface_path: path,
        archive_id: oldId,
        messages: [
          {
            id: expect.any(Number),
            role: 'user',
            username: 'Ann',
            text: 'old conversation',
            timestamp: expect.stringMatching(/^\d{4}-.*\.\d{6}Z$/),
            interface_path: path,
          },
        ],
      },
    ]);
  });

  it('restores into an empty chat without archiving anything', async () => {
    await say('only');
    const id = (await subject.app.inject({ method: 'POST', url: '/api/chat/archive' })).json().archive_id as string;
    const response = await subject.app.inject({ method: 'POST', url: '/api/chat/restore', payload: { archive_id: id } });
    expect(response.json()).toEqual({ success: true, restored: 1, archived_current: null });
    expect(await readdir(archiveDir())).toHaveLength(1);
  });

  it('answers 404 for unknown or path-like archive ids and never leaves the archive folder', async () => {
    await writeFile(join(subject.harness.cwd, 'secret.json'), '{"messages": []}');
    for (const id of ['nope', '..%2Fsecret', '..%2F..%2Fsecret', '%2E%2E']) {
      expect((await subject.app.inject({ method: 'GET', url: `/api/chat/archives/${id}` })).statusCode).toBe(404);
      expect((await subject.app.inject({ method: 'DELETE', url: `/api/chat/archives/${id}` })).statusCode).toBe(404);
      expect((await subject.app.inject({ method: 'POST', url: `/api/chat/archives/${id}/rename`, payload: { name: 'x' } })).statusCode).toBe(404);
    }
    const restore = await subject.app.inject({ method: 'POST', url: '/api/chat/restore', payload: { archive_id: '../secret' } });
    expect(restore.statusCode).toBe(404);
    expect(restore.json().error.code).toBe('not_found');
    expect(await readFile(join(subject.harness.cwd, 'secret.json'), 'utf8')).toBe('{"messages": []}');
  });

  it('rejects bad bodies with 400 and an unreadable archive file with 409', async () => {
    await say('x');
    const id = (await subject.app.inject({ method: 'POST', url: '/api/chat/archive' })).json().archive_id as string;
    expect((await subject.app.inject({ method: 'POST', url: `/api/chat/archives/${id}/rename`, payload: { name: '   ' } })).statusCode).toBe(400);
    expect((await subject.app.inject({ method: 'POST', url: `/api/chat/archives/${id}/rename`, payload: {} })).statusCode).toBe(400);
    expect((await subject.app.inject({ method: 'POST', url: '/api/chat/restore', payload: {} })).statusCode).toBe(400);
    expect(
      (await subject.app.inject({ method: 'POST', url: '/api/chat/restore', headers: { 'content-type': 'application/json' }, payload: '{oops' })).statusCode,
    ).toBe(400);
    await writeFile(join(archiveDir(), 'broken.json'), 'not json');
    const broken = await subject.app.inject({ method: 'POST', url: '/api/chat/restore', payload: { archive_id: 'broken' } });
    expect(broken.statusCode).toBe(409);
    expect((await subject.app.inject({ method: 'GET', url: '/api/chat/archives' })).json().archives).toHaveLength(1);
  });

  it('sets, merges and reads session metadata', async () => {
    const empty = (await subject.app.inject({ method: 'GET', url: '/api/chat/session_meta' })).json();
    expect(empty).toEqual({ session_id: expect.any(String), interface_path: path, metadata: {}, updated_at: null });
    await subject.app.inject({ method: 'POST', url: '/api/chat/session_meta', payload: { title: 'Trip ✈️', pinned: true } });
    const merged = await subject.app.inject({ method: 'POST', url: '/api/chat/session_meta', payload: { pinned: null, mood: { calm: 1 } } });
    expect(merged.statusCode).toBe(200);
    expect(merged.json().metadata).toEqual({ title: 'Trip ✈️', mood: { calm: 1 } });
    expect((await subject.app.inject({ method: 'GET', url: '/api/chat/session_meta' })).json()).toMatchObject({
      metadata: { title: 'Trip ✈️', mood: { calm: 1 } },
      updated_at: expect.any(String),
    });
    expect((await subject.app.inject({ method: 'POST', url: '/api/chat/session_meta', payload: [1, 2] })).statusCode).toBe(400);
    expect((await subject.app.inject({ method: 'POST', url: '/api/chat/session_meta', payload: { big: 'x'.repeat(20_000) } })).statusCode).toBe(400);
    expect((await subject.app.inject({ method: 'GET', url: '/api/chat/session_meta?session_id=someone-else' })).statusCode).toBe(404);
  });
});

describe('chat endpoints under MULTI_SESSION', () => {
  const subject = useTestApp({ environment: { MULTI_SESSION: 'true' } });

  it('act on the socket session named by ?session_id and refuse to guess', async () => {
    const socket = subject.harness.services.history.sessions.connect();
    await subject.harness.services.history.chat.save({ interface_path: socket.interface_path, message_text: 'mine' });
    const missing = await subject.app.inject({ method: 'POST', url: '/api/chat/archive' });
    expect(missing.statusCode).toBe(400);
    expect((await subject.app.inject({ method: 'POST', url: '/api/chat/archive?session_id=not-connected' })).statusCode).toBe(404);
    const archived = await subject.app.inject({ method: 'POST', url: `/api/chat/archive?session_id=${socket.session_id}` });
    expect(archived.json()).toMatchObject({ success: true, archive_id: expect.any(String) });
    expect(await subject.harness.services.history.chat.load(socket.interface_path)).toEqual([]);
  });
});
