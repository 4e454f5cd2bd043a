import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/services.ts';

const FOLDER = join('backups', 'config_files');

/** Writes a file under the test's working directory and returns its path relative to it. */
async function place(cwd: string, path: string, content: string): Promise<string> {
  await mkdir(join(cwd, path, '..'), { recursive: true });
  await writeFile(join(cwd, path), content);
  return path;
}

describe('file variables stay inside the configuration-files folder', () => {
  describe('POST /api/config', () => {
    const test = useTestApp();
    const saveCert = (value: string) => test.app.inject({ method: 'POST', url: '/api/config', payload: { key: 'APP_WEBUI_TLS_CERT', value } });

    it('refuses a path outside the folder, naming the folder, and stores nothing', async () => {
      const { cwd } = test.harness;
      await place(cwd, join(FOLDER, 'APP_WEBUI_TLS_CERT', 'cert.pem'), 'CERT');
      await place(cwd, 'secret.txt', 'SECRET');
      for (const value of ['/etc/passwd', join(cwd, 'backups', 'anima.sqlite-wal'), join(FOLDER, '..', '..', 'secret.txt'), 'secret.txt']) {
        const response = await saveCert(value);
        expect(response.statusCode, value).toBe(400);
        expect(response.json().error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining(FOLDER) });
      }
      expect(test.harness.services.config.get('APP_WEBUI_TLS_CERT')).toBe('');
      expect(await test.harness.services.database.db.selectFrom('config_entries').selectAll().execute()).toEqual([]);
    });

    it('refuses a symlink inside the folder that points out of it', async () => {
      const { cwd } = test.harness;
      await mkdir(join(cwd, FOLDER), { recursive: true });
      await symlink('/etc/passwd', join(cwd, FOLDER, 'innocent.pem'));
      const response = await saveCert(join(FOLDER, 'innocent.pem'));
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('invalid_request');
    });

    it('saves a file inside the folder and serves it, and accepts an empty value to unset it', async () => {
      const path = await place(test.harness.cwd, join(FOLDER, 'APP_WEBUI_TLS_CERT', 'cert.pem'), 'CERTIFICATE');
      expect((await saveCert(path)).statusCode).toBe(200);
      const download = await test.app.inject({ method: 'GET', url: '/api/config/APP_WEBUI_TLS_CERT/file' });
      expect(download.statusCode).toBe(200);
      expect(download.body).toBe('CERTIFICATE');
      expect((await saveCert('')).statusCode).toBe(200);
      expect(test.harness.services.config.get('APP_WEBUI_TLS_CERT')).toBe('');
    });
  });

  describe('GET /api/config/:key/file with a value from the environment', () => {
    describe('naming a file outside the folder', () => {
      const test = useTestApp({ environment: { APP_WEBUI_TLS_CERT: '/etc/passwd' } });

      it('does not serve it', async () => {
        const response = await test.app.inject({ method: 'GET', url: '/api/config/APP_WEBUI_TLS_CERT/file' });
        expect(response.statusCode).toBe(404);
        expect(response.json().error).toMatchObject({ code: 'not_found', message: expect.stringContaining(FOLDER) });
        expect(response.body).not.toContain('root:');
      });
    });

    describe('naming a symlink inside the folder that points out of it', () => {
      const test = useTestApp({ environment: { APP_WEBUI_TLS_CERT: join(FOLDER, 'link.pem') } });

      it('does not serve what the link points to', async () => {
        const { cwd } = test.harness;
        await place(cwd, 'outside.txt', 'OUTSIDE');
        await mkdir(join(cwd, FOLDER), { recursive: true });
        await symlink(join(cwd, 'outside.txt'), join(cwd, FOLDER, 'link.pem'));
        const response = await test.app.inject({ method: 'GET', url: '/api/config/APP_WEBUI_TLS_CERT/file' });
        expect(response.statusCode).toBe(404);
        expect(response.body).not.toContain('OUTSIDE');
      });
    });
  });
});
