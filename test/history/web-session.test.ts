import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnknownSessionError, WebSessions } from '../../src/history/web-session.ts';
import { createLogger } from '../../src/logging.ts';
import { createTestServices } from '../helpers/services.ts';

const { logger } = createLogger({ level: 'silent', pretty: false });

describe('web session', () => {
  let backups: string;

  beforeEach(async () => {
    backups = await mkdtemp(join(tmpdir(), 'anima-session-'));
  });
  afterEach(async () => {
    await rm(backups, { recursive: true, force: true });
  });

  it('keeps one persistent id in webui_session_id.txt across restarts', async () => {
    const first = await WebSessions.open({ backups, multiSession: false, logger });
    const session = first.connect();
    expect(session.interface_path).toBe(`webui/${session.session_id}`);
    expect((await readFile(join(backups, 'webui_session_id.txt'), 'utf8')).trim()).toBe(session.session_id);
    expect(first.connect()).toEqual(session);
    const restarted = await WebSessions.open({ backups, multiSession: false, logger });
    expect(restarted.connect()).toEqual(session);
    expect(restarted.resolve()).toEqual(session);
  });

  it('replaces an id file holding garbage', async () => {
    await writeFile(join(backups, 'webui_session_id.txt'), '../../etc\n');
    const session = (await WebSessions.open({ backups, multiSession: false, logger })).connect();
    expect(session.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await readFile(join(backups, 'webui_session_id.txt'), 'utf8')).trim()).toBe(session.session_id);
  });

  it('gives each socket its own id under MULTI_SESSION and writes no file', async () => {
    const sessions = await WebSessions.open({ backups, multiSession: true, logger });
    const a = sessions.connect();
    const b = sessions.connect();
    expect(a.session_id).not.toBe(b.session_id);
    expect(await readdir(backups)).toEqual([]);
    expect(sessions.resolve(a.session_id)).toEqual(a);
    expect(() => sessions.resolve()).toThrow(UnknownSessionError);
    sessions.disconnect(a.session_id);
    expect(() => sessions.resolve(a.session_id)).toThrow(UnknownSessionError);
  });

  it('is wired into the services from MULTI_SESSION and BACKUPS_DIR', async () => {
    const single = await createTestServices();
    const multi = await createTestServices({ environment: { MULTI_SESSION: 'true' } });
    try {
      expect(single.services.history.sessions.multiSession).toBe(false);
      expect(await readdir(single.services.paths.backups)).toContain('webui_session_id.txt');
      expect(multi.services.history.sessions.multiSession).toBe(true);
      await expect(readdir(multi.services.paths.backups)).rejects.toThrow(/ENOENT/);
    } finally {
      await single.close();
      await multi.close();
    }
  });
});
