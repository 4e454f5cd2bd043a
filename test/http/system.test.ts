import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/services.ts';

describe('system endpoints', () => {
  let server: Server | undefined;
  // Before useTestApp (after-hooks run in reverse), so the adapter closes after the app that talked to it.
  afterEach(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
  });
  const subject = useTestApp({ startInTest: true });
  const start = (environment: Record<string, string> = {}) => subject.start({ environment });

  describe('POST /api/system/restart', () => {
    it('refuses without {confirm: true}', async () => {
      await start();
      for (const payload of [{}, { confirm: false }]) {
        const response = await subject.app.inject({ method: 'POST', url: '/api/system/restart', payload });
        expect(response.statusCode).toBe(400);
        expect(response.json().error.code).toBe('invalid_request');
      }
      const wrongType = await subject.app.inject({ method: 'POST', url: '/api/system/restart', payload: { confirm: 'yes' } });
      expect(wrongType.statusCode).toBe(400);
      expect(subject.harness.restarts()).toBe(0);
    });

    it('accepts with confirmation and restarts once the answer is sent', async () => {
      await start();
      const response = await subject.app.inject({ method: 'POST', url: '/api/system/restart', payload: { confirm: true } });
      expect(response.statusCode).toBe(202);
      expect(response.json()).toEqual({ restarting: true });
      expect(subject.harness.restarts()).toBe(1);
      const logged = await subject.harness.services.activity.list({ limit: 5, kind: 'system' });
      expect(logged.map((entry) => entry.message)).toContain('restart requested');
    });
  });

  it('POST /api/database/backup writes a backup under backups/db and names it', async () => {
    await subject.start({ databaseUrl: 'sqlite:backups/anima.sqlite' });
    const response = await subject.app.inject({ method: 'POST', url: '/api/database/backup' });
    expect(response.statusCode).toBe(201);
    const { file, path } = response.json();
    expect(file).toMatch(/^anima-[0-9T-]+Z\.sqlite$/);
    expect(path).toBe(`db/${file}`);
    expect(existsSync(join(subject.harness.cwd, 'backups', 'db', file))).toBe(true);
  });

  it('GET /api/prompt_override reports the configured override', async () => {
    await start();
    expect((await subject.app.inject({ method: 'GET', url: '/api/prompt_override' })).json()).toEqual({ active: false, prompt_override: null });
    await subject.harness.services.config.set('PROMPT_OVERRIDE', 'Speak like a pirate.');
    expect((await subject.app.inject({ method: 'GET', url: '/api/prompt_override' })).json()).toEqual({
      active: true,
      prompt_override: 'Speak like a pirate.',
    });
  });

  it('GET /api/locations suggests places matching the query and the configured one', async () => {
    await start({ PERSONA_LOCATION: 'Rome, Europe' });
    const plain = (await subject.app.inject({ method: 'GET', url: '/api/locations' })).json();
    expect(plain.current).toBe('Rome, Europe');
    expect(plain.suggestions[0]).toBe('Rome, Europe');
    const searched = (await subject.app.inject({ method: 'GET', url: '/api/locations?q=tok' })).json();
    expect(searched.suggestions).toContain('Tokyo, Asia');
    expect(searched.suggestions.every((place: string) => place.toLowerCase().includes('tok'))).toBe(true);
    const tooLong = await subject.app.inject({ method: 'GET', url: `/api/locations?q=${'x'.repeat(101)}` });
    expect(tooLong.statusCode).toBe(400);
  });

  it('GET /api/logchat/info describes the logchat settings', async () => {
    await start({ LOGCHAT_INTERFACE_PATH: 'telegram/42', LOGCHAT_LEVEL: 'error' });
    expect((await subject.app.inject({ method: 'GET', url: '/api/logchat/info' })).json()).toEqual({
      enabled: true,
      interface_path: 'telegram/42',
      level: 'error',
    });
  });

  describe('GET /api/logs/info', () => {
    const info = async () => (await subject.app.inject({ method: 'GET', url: '/api/logs/info' })).json();

    it('says the live log is off without WEB_DEBUG', async () => {
      await start();
      expect(await info()).toEqual({ live: false, web_debug: false });
    });

    it('says the live log runs when WEB_DEBUG=1 at start', async () => {
      await start({ WEB_DEBUG: '1' });
      expect(await info()).toEqual({ live: true, web_debug: true });
    });

    it('tells WEB_DEBUG saved since the start apart from the stream that runs', async () => {
      await start();
      await subject.harness.services.config.set('WEB_DEBUG', '1');
      expect(await info()).toEqual({ live: false, web_debug: true });
    });
  });

  describe('remote-streaming adapter', () => {
    it('is disabled when STREAMER_URL is empty', async () => {
      await start();
      expect((await subject.app.inject({ method: 'GET', url: '/api/streamer' })).json()).toEqual({ enabled: false, url: null });
      expect((await subject.app.inject({ method: 'GET', url: '/api/streamer/health' })).json()).toMatchObject({ status: 'disabled' });
    });

    it('reports ok when the adapter answers /health, and unavailable when it fails', async () => {
      let healthy = true;
      server = createServer((request, response) => {
        response.statusCode = request.url === '/base/health' && healthy ? 200 : 503;
        response.end('{}');
      });
      await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/base`;
      await start({ STREAMER_URL: url });
      expect((await subject.app.inject({ method: 'GET', url: '/api/streamer' })).json()).toEqual({ enabled: true, url });
      expect((await subject.app.inject({ method: 'GET', url: '/api/streamer/health' })).json()).toMatchObject({ status: 'ok', http_status: 200 });
      healthy = false;
      expect((await subject.app.inject({ method: 'GET', url: '/api/streamer/health' })).json()).toMatchObject({ status: 'unavailable', reason: 'HTTP 503' });
    });

    it('reports unavailable when nothing listens', async () => {
      await start({ STREAMER_URL: 'http://127.0.0.1:9/' });
      expect((await subject.app.inject({ method: 'GET', url: '/api/streamer/health' })).json()).toMatchObject({ status: 'unavailable' });
    });
  });

  it('serves the OpenAPI document and its viewer at /api/docs', async () => {
    await start();
    const document = await subject.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(document.statusCode).toBe(200);
    const paths = Object.keys(document.json().paths);
    expect(paths).toEqual(expect.arrayContaining(['/api/about', '/api/config', '/api/session', '/api/system/restart']));
    const viewer = await subject.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(viewer.statusCode).toBe(200);
    expect(viewer.headers['content-type']).toContain('text/html');
  });
});
