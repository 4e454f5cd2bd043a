import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConfigChange } from '../../src/config/store.ts';
import { type TestServiceOptions, useTestApp } from '../helpers/services.ts';
import { selfSignedTls } from '../helpers/tls-files.ts';
import { multipart as multipartBody } from '../helpers/upload-files.ts';

describe('configuration endpoints', () => {
  const subject = useTestApp({ startInTest: true });
  const start = (options: TestServiceOptions = {}) => subject.start(options);

  /** One file field, with the session token a form post needs. */
  const multipart = (name: string, filename: string, value: Buffer | string) => multipartBody([{ name, filename, value }], subject.harness.services);

  describe('GET /api/config', () => {
    it('lists every variable with value, default, source and group, masking secrets', async () => {
      await start({
        environment: { OPENAI_API_KEY: 'sk-very-secret', STATION_STREAMER_PASSWORD: '', DATABASE_URL: 'mysql://anima:hunter2@db:3306/anima' },
      });
      const response = await subject.app.inject({ method: 'GET', url: '/api/config' });
      expect(response.statusCode).toBe(200);
      const entries = new Map((response.json().entries as Array<{ key: string }>).map((entry) => [entry.key, entry]));
      expect(entries.get('CHAT_HISTORY')).toMatchObject({ value: '10', default: '10', source: 'default', group: 'history', type: 'integer' });
      expect(entries.get('OPENAI_API_KEY')).toMatchObject({ value: { set: true }, secret: true, source: 'environment' });
      expect(entries.get('STATION_STREAMER_PASSWORD')).toMatchObject({ value: { set: false }, default: { set: true } });
      expect(entries.get('APP_WEBUI_TLS_KEY')).toMatchObject({ secret: true, type: 'file' });
      expect(entries.get('DATABASE_URL')).toMatchObject({ value: 'mysql://anima:***@db:3306/anima', editable: false });
      expect(response.body).not.toContain('sk-very-secret');
      expect(response.body).not.toContain('hunter2');
    });
  });

  describe('POST /api/config', () => {
    it('saves an entry, applies it at once, persists it and emits a change event', async () => {
      await start();
      const changes: ConfigChange[] = [];
      subject.harness.services.config.on('change', (change) => changes.push(change));
      const response = await subject.app.inject({ method: 'POST', url: '/api/config', payload: { key: 'CHAT_HISTORY', value: 42 } });
      expect(response.statusCode).toBe(200);
      expect(response.json().entry).toMatchObject({ key: 'CHAT_HISTORY', value: '42', source: 'override' });
      expect(subject.harness.services.config.get('CHAT_HISTORY')).toBe(42);
      expect(changes).toEqual([{ key: 'CHAT_HISTORY', value: 42, previous: 10 }]);
      const stored = await subject.harness.services.database.db.selectFrom('config_entries').selectAll().execute();
      expect(stored).toMatchObject([{ name: 'CHAT_HISTORY', value: '42' }]);
    });

    it('accepts a JSON variable as an object and validates its shape', async () => {
      await start();
      const ok = await subject.app.inject({
        method: 'POST',
        url: '/api/config',
        payload: { key: 'VOX_LANGUAGE_OVERRIDES', value: { it: { engine: 'http', voice: 'giulia' } } },
      });
      expect(ok.statusCode).toBe(200);
      expect(subject.harness.services.config.get('VOX_LANGUAGE_OVERRIDES')).toEqual({ it: { engine: 'http', voice: 'giulia' } });
      const bad = await subject.app.inject({
        method: 'POST',
        url: '/api/config',
        payload: { key: 'VOX_LANGUAGE_OVERRIDES', value: { english: { voice: 'x' } } },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.code).toBe('invalid_request');
      expect(Array.isArray(bad.json().error.details)).toBe(true);
      expect(subject.harness.services.config.get('VOX_LANGUAGE_OVERRIDES')).toEqual({ it: { engine: 'http', voice: 'giulia' } });
    });

    it('answers 404 for an unknown key and 400 for a bad value, storing nothing', async () => {
      await start();
      const unknown = await subject.app.inject({ method: 'POST', url: '/api/config', payload: { key: 'NO_SUCH_VARIABLE', value: '1' } });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error.code).toBe('not_found');
      const bad = await subject.app.inject({ method: 'POST', url: '/api/config', payload: { key: 'APP_RATE_LIMIT_PER_MINUTE', value: 'fast' } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toMatchObject({ code: 'invalid_request', details: [expect.objectContaining({ message: 'expected a number' })] });
      const environmentOnly = await subject.app.inject({ method: 'POST', url: '/api/config', payload: { key: 'DATABASE_URL', value: 'sqlite:x.sqlite' } });
      expect(environmentOnly.statusCode).toBe(400);
      expect(await subject.harness.services.database.db.selectFrom('config_entries').selectAll().execute()).toEqual([]);
    });

    it('resets a saved entry with value null', async () => {
      await start({ environment: { OPENAI_MODEL: 'env-model' } });
      await subject.app.inject({ method: 'POST', url: '/api/config', payload: { key: 'OPENAI_MODEL', value: 'saved' } });
      const reset = await subject.app.inject({ method: 'POST', url: '/api/config', payload: { key: 'OPENAI_MODEL', value: null } });
      expect(reset.json().entry).toMatchObject({ value: 'env-model', source: 'environment' });
    });

    it('rejects a missing key, a malformed body, a wrong content type and an oversized body', async () => {
      await start({ environment: { APP_BODY_LIMIT_BYTES: '2048' } });
      const missing = await subject.app.inject({ method: 'POST', url: '/api/config', payload: { value: 1 } });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().error.code).toBe('invalid_request');
      const malformed = await subject.app.inject({ method: 'POST', url: '/api/config', headers: { 'content-type': 'application/json' }, payload: '{"key": ' });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().error.code).toBe('invalid_request');
      const wrongType = await subject.app.inject({ method: 'POST', url: '/api/config', headers: { 'content-type': 'text/csv' }, payload: 'a,b' });
      expect(wrongType.statusCode).toBe(415);
      expect(wrongType.json().error.code).toBe('unsupported_media_type');
      const huge = await subject.app.inject({ method: 'POST', url: '/api/config', payload: { key: 'PROMPT_OVERRIDE', value: 'x'.repeat(4096) } });
      expect(huge.statusCode).toBe(413);
      expect(huge.json().error.code).toBe('payload_too_large');
    });
  });

  describe('config files', () => {
    it('uploads the file of a file variable, points the variable at it, and downloads it', async () => {
      await start();
      const upload = await subject.app.inject({
        method: 'POST',
        url: '/api/config/APP_WEBUI_TLS_CERT/upload',
        ...multipart('file', '../../etc/cert.pem', selfSignedTls().certificate),
      });
      expect(upload.statusCode).toBe(201);
      expect(upload.json()).toMatchObject({
        key: 'APP_WEBUI_TLS_CERT',
        path: join('backups', 'config_files', 'APP_WEBUI_TLS_CERT', 'cert.pem'),
        size: selfSignedTls().certificate.length,
      });
      expect(subject.harness.services.config.get('APP_WEBUI_TLS_CERT')).toBe(upload.json().path);
      const download = await subject.app.inject({ method: 'GET', url: '/api/config/APP_WEBUI_TLS_CERT/file' });
      expect(download.statusCode).toBe(200);
      expect(download.body).toBe(selfSignedTls().certificate);
      expect(download.headers['content-disposition']).toBe('attachment; filename="cert.pem"');
    });

    it('refuses uploads for variables that are not files, and unknown variables', async () => {
      await start();
      const notFile = await subject.app.inject({ method: 'POST', url: '/api/config/CHAT_HISTORY/upload', ...multipart('file', 'a.txt', 'x') });
      expect(notFile.statusCode).toBe(400);
      const unknown = await subject.app.inject({ method: 'POST', url: '/api/config/NOPE/upload', ...multipart('file', 'a.txt', 'x') });
      expect(unknown.statusCode).toBe(404);
      const notMultipart = await subject.app.inject({ method: 'POST', url: '/api/config/APP_WEBUI_TLS_CERT/upload', payload: { file: 'x' } });
      expect(notMultipart.statusCode).toBe(415);
    });

    it('answers 413 for a file over APP_UPLOAD_MAX_BYTES and leaves nothing on disk', async () => {
      await start({ environment: { APP_UPLOAD_MAX_BYTES: '100' } });
      const response = await subject.app.inject({
        method: 'POST',
        url: '/api/config/APP_WEBUI_TLS_CERT/upload',
        ...multipart('file', 'big.pem', Buffer.alloc(5000, 1)),
      });
      expect(response.statusCode).toBe(413);
      expect(response.json().error.code).toBe('payload_too_large');
      const folder = join(subject.harness.cwd, 'backups', 'config_files', 'APP_WEBUI_TLS_CERT');
      expect(existsSync(folder) ? readdirSync(folder) : []).toEqual([]);
      expect(subject.harness.services.config.get('APP_WEBUI_TLS_CERT')).toBe('');
    });

    it('never lets a secret file be downloaded, and answers 404 when a file variable is unset', async () => {
      await start();
      const stored = await subject.app.inject({
        method: 'POST',
        url: '/api/config/APP_WEBUI_TLS_KEY/upload',
        ...multipart('file', 'key.pem', selfSignedTls().privateKey),
      });
      expect(stored.statusCode).toBe(201);
      const secret = await subject.app.inject({ method: 'GET', url: '/api/config/APP_WEBUI_TLS_KEY/file' });
      expect(secret.statusCode).toBe(403);
      expect(secret.body).not.toContain('PRIVATE');
      const unset = await subject.app.inject({ method: 'GET', url: '/api/config/APP_WEBUI_TLS_CERT/file' });
      expect(unset.statusCode).toBe(404);
    });
  });
});
