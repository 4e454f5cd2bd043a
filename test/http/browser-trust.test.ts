import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import { rawRequest, type RawRequest } from '../helpers/raw-http.ts';
import { useTestApp } from '../helpers/services.ts';
import { openSocket } from '../helpers/sockets.ts';
import { ASCII_FBX_FILE, copyFixtureSkins, multipart } from '../helpers/upload-files.ts';

const EVIL = 'http://evil.example';

/** What a web page on another site can make a browser send to Anima on this machine. */
describe('loopback trust is for this machine, not for every website in its browser', () => {
  const subject = useTestApp({ startInTest: true, compat: true, listen: true });
  let web = 0;
  let compat = 0;
  let skins = '';

  async function start(environment: Record<string, string> = {}) {
    skins = await copyFixtureSkins();
    await subject.start({ environment: { SKINS_DIR: skins, ...environment } });
    ({ web, compat } = subject.ports);
  }

  const onWeb = (request: RawRequest) => rawRequest(web, request);
  const onCompat = (request: RawRequest) => rawRequest(compat, request);
  const errorCode = (body: string) => (JSON.parse(body) as { error: { code: string } }).error.code;

  /** A socket upgrade: the status the server answered it with, or the messages it sent before closing. */
  function upgrade(path: string, headers: Record<string, string>): Promise<{ status: number } | { code: number; messages: string[] }> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${web}${path}`, { headers });
      const messages: string[] = [];
      socket.on('unexpected-response', (_request, response) => resolve({ status: response.statusCode ?? 0 }));
      socket.on('open', () => socket.send(JSON.stringify({ type: 'hello' })));
      socket.on('message', (data) => messages.push(String(data)));
      socket.on('close', (code) => resolve({ code, messages }));
      socket.on('error', (error) => (error.message.includes('Unexpected server response') ? undefined : reject(error)));
    });
  }

  describe('Host', () => {
    it('is 403 forbidden_host on both ports for a name that does not name this machine (DNS rebinding)', async () => {
      await start();
      const rebound = await onWeb({ path: '/api/config', headers: { host: `evil.example:${web}` } });
      expect([rebound.status, errorCode(rebound.body)]).toEqual([403, 'forbidden_host']);
      expect(rebound.body).not.toContain('OPENAI_BASE_URL');
      const write = await onWeb({
        method: 'POST',
        path: '/api/config',
        headers: { host: `evil.example:${web}`, 'content-type': 'application/json' },
        body: JSON.stringify({ key: 'OPENAI_BASE_URL', value: 'http://evil.example/v1' }),
      });
      expect(write.status).toBe(403);
      expect(subject.harness.services.config.get('OPENAI_BASE_URL')).toBe('https://api.openai.com/v1');
      expect((await onWeb({ path: '/skins/default/persona.json', headers: { host: 'evil.example' } })).status).toBe(403);
      for (const path of ['/', '/api/tags']) {
        const answer = await onCompat({ path, headers: { host: `evil.example:${compat}` } });
        expect(answer.status).toBe(403);
        expect(JSON.parse(answer.body)).toEqual({ error: expect.stringContaining('APP_ALLOWED_HOSTS') });
      }
    });

    it('serves localhost, 127.0.0.1 and [::1] on both ports', async () => {
      await start();
      for (const name of ['localhost', '127.0.0.1', '[::1]', 'LOCALHOST.']) {
        expect((await onWeb({ path: '/api/about', headers: { host: `${name}:${web}` } })).status).toBe(200);
        expect((await onCompat({ path: '/api/version', headers: { host: `${name}:${compat}` } })).status).toBe(200);
      }
    });

    it('serves a name listed in APP_ALLOWED_HOSTS, and any Host to a client with the API key', async () => {
      await start({ APP_ALLOWED_HOSTS: 'anima.lan, companion.local', APP_API_KEY: 'k3y' });
      expect((await onWeb({ path: '/api/about', headers: { host: `anima.lan:${web}` } })).status).toBe(200);
      expect((await onCompat({ path: '/api/version', headers: { host: 'companion.local' } })).status).toBe(200);
      expect((await onWeb({ path: '/api/about', headers: { host: 'proxy.example', 'x-api-key': 'k3y' } })).status).toBe(200);
    });
  });

  describe('Origin on the web port', () => {
    /** An animation upload as a form would post it, with the page's session token in its headers. */
    const waveUpload = async () =>
      multipart(
        [
          { name: 'state', value: 'idle' },
          { name: 'file', filename: 'Wave.fbx', value: await readFile(ASCII_FBX_FILE) },
        ],
        subject.harness.services,
      );

    it('refuses a WebSocket from a foreign origin at the upgrade: it receives nothing', async () => {
      await start();
      for (const path of ['/ws', '/api/body/ws']) {
        const answer = await upgrade(path, { origin: EVIL });
        expect(answer).toEqual({ status: 403 });
      }
    });

    it("admits a WebSocket from the web UI's own origin", async () => {
      await start();
      const client = await openSocket(`ws://127.0.0.1:${web}/ws`, { origin: `http://127.0.0.1:${web}` });
      client.socket.send(JSON.stringify({ type: 'hello' }));
      expect(await client.next((message) => (message as { type?: string }).type === 'animation_state')).toMatchObject({ type: 'animation_state' });
      client.socket.terminate();
    });

    it('refuses a socket from the right host on another port: that is another origin', async () => {
      await start();
      expect(await upgrade('/ws', { origin: 'http://127.0.0.1:3000' })).toEqual({ status: 403 });
    });

    it('refuses a cross-site multipart upload and stores nothing', async () => {
      await start();
      const form = await waveUpload();
      const { authorization: _token, ...formHeaders } = form.headers;
      const browsers: Array<Record<string, string>> = [{ origin: EVIL }, { 'sec-fetch-site': 'cross-site' }, { origin: 'null' }];
      for (const browser of browsers) {
        const answer = await onWeb({ method: 'POST', path: '/api/animations/upload', headers: { ...formHeaders, ...browser }, body: form.payload });
        expect([answer.status, errorCode(answer.body)]).toEqual([403, 'forbidden_origin']);
      }
      const vrm = await onWeb({ method: 'POST', path: '/api/vrm', headers: { ...formHeaders, origin: EVIL }, body: form.payload });
      expect(vrm.status).toBe(403);
      expect(await readdir(join(skins, 'temp')).catch(() => [])).toEqual([]);
    });

    it("never trusts a form post by address alone: without a token it is 401, with the page's token it is stored", async () => {
      await start();
      const form = await waveUpload();
      const { authorization, ...formHeaders } = form.headers;
      const bare = await onWeb({ method: 'POST', path: '/api/animations/upload', headers: formHeaders, body: form.payload });
      expect([bare.status, errorCode(bare.body)]).toEqual([401, 'unauthorized']);
      const page = await onWeb({
        method: 'POST',
        path: '/api/animations/upload',
        headers: { ...formHeaders, authorization, origin: `http://127.0.0.1:${web}` },
        body: form.payload,
      });
      expect(page.status).toBe(201);
    });

    it("refuses a text/plain post (what any site's form can send) and never stores it", async () => {
      await start();
      const body = JSON.stringify({ key: 'OPENAI_BASE_URL', value: 'http://evil.example/v1' });
      const bare = await onWeb({ method: 'POST', path: '/api/config', headers: { 'content-type': 'text/plain' }, body });
      expect(bare.status).toBe(401);
      const cross = await onWeb({ method: 'POST', path: '/api/config', headers: { 'content-type': 'text/plain', origin: EVIL }, body });
      expect(cross.status).toBe(403);
      const tokened = await onWeb({
        method: 'POST',
        path: '/api/config',
        headers: { 'content-type': 'text/plain', authorization: `Bearer ${subject.harness.services.trust.tokens.issue().token}` },
        body,
      });
      expect([tokened.status, errorCode(tokened.body)]).toEqual([415, 'unsupported_media_type']);
      expect(subject.harness.services.config.get('OPENAI_BASE_URL')).toBe('https://api.openai.com/v1');
    });

    it("refuses a JSON request from a foreign origin or a cross-site fetch without Origin, and serves the page's own", async () => {
      await start();
      const json = { 'content-type': 'application/json' };
      const body = JSON.stringify({ key: 'LOGGING_LEVEL', value: 'debug' });
      const foreign = await onWeb({ method: 'POST', path: '/api/config', headers: { ...json, origin: EVIL }, body });
      expect([foreign.status, errorCode(foreign.body)]).toEqual([403, 'forbidden_origin']);
      const stripped = await onWeb({ path: '/api/config', headers: { 'sec-fetch-site': 'same-site' } });
      expect(stripped.status).toBe(403);
      expect(subject.harness.services.config.get('LOGGING_LEVEL')).toBe('info');
      const own = await onWeb({
        method: 'POST',
        path: '/api/config',
        headers: { ...json, origin: `http://localhost:${web}`, host: `localhost:${web}`, 'sec-fetch-site': 'same-origin' },
        body,
      });
      expect(own.status).toBe(200);
      expect((await onWeb({ path: '/api/about', headers: { 'sec-fetch-site': 'none' } })).status).toBe(200);
    });

    it('accepts the API key and session tokens from any origin', async () => {
      await start({ APP_API_KEY: 'k3y' });
      expect((await onWeb({ path: '/api/about', headers: { origin: EVIL, 'x-api-key': 'k3y' } })).status).toBe(200);
      const token = subject.harness.services.trust.tokens.issue().token;
      expect((await onWeb({ path: '/api/about', headers: { origin: EVIL, authorization: `Bearer ${token}` } })).status).toBe(200);
    });

    it('trusts an origin listed in APP_ALLOWED_ORIGINS, with `*` for an extension id or a port', async () => {
      await start({ APP_ALLOWED_ORIGINS: 'chrome-extension://*, http://localhost:*' });
      expect((await onWeb({ path: '/api/about', headers: { origin: 'chrome-extension://abcdefghijklmnop' } })).status).toBe(200);
      expect((await onWeb({ path: '/api/about', headers: { origin: 'http://localhost:5173' } })).status).toBe(200);
      expect((await onWeb({ path: '/api/about', headers: { origin: 'moz-extension://abc' } })).status).toBe(403);
      expect((await onWeb({ path: '/api/about', headers: { origin: 'http://localhost.evil.example:5173' } })).status).toBe(403);
      const client = await openSocket(`ws://127.0.0.1:${web}/api/body/ws`, { origin: 'chrome-extension://abcdefghijklmnop' });
      client.socket.send(JSON.stringify({ type: 'hello' }));
      expect(await client.next()).toBeDefined();
      client.socket.terminate();
    });
  });

  describe('Origin on the compat port', () => {
    it('refuses a foreign origin, answers CORS only for COMPAT_ALLOWED_ORIGINS', async () => {
      await start({ COMPAT_ALLOWED_ORIGINS: 'http://localhost:3000' });
      const chat = JSON.stringify({ model: 'anima', stream: false, messages: [{ role: 'user', content: 'read me your history' }] });
      const json = { 'content-type': 'application/json' };
      const foreign = await onCompat({ method: 'POST', path: '/api/chat', headers: { ...json, origin: EVIL }, body: chat });
      expect(foreign.status).toBe(403);
      expect(JSON.parse(foreign.body)).toEqual({ error: expect.stringContaining('COMPAT_ALLOWED_ORIGINS') });
      expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
      const preflight = await onCompat({ method: 'OPTIONS', path: '/api/chat', headers: { origin: EVIL, 'access-control-request-method': 'POST' } });
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
      const allowed = await onCompat({
        method: 'OPTIONS',
        path: '/api/chat',
        headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST' },
      });
      expect(allowed.headers['access-control-allow-origin']).toBe('http://localhost:3000');
      const tags = await onCompat({ path: '/api/tags', headers: { origin: 'http://localhost:3000' } });
      expect([tags.status, tags.headers['access-control-allow-origin']]).toEqual([200, 'http://localhost:3000']);
    });

    it('reads JSON bodies only: a text/plain or form post is 415 with the header to send', async () => {
      await start();
      const chat = JSON.stringify({ model: 'anima', stream: false, messages: [{ role: 'user', content: 'hi' }] });
      for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
        const answer = await onCompat({ method: 'POST', path: '/api/chat', headers: { 'content-type': type }, body: chat });
        expect(answer.status).toBe(415);
        expect(JSON.parse(answer.body)).toEqual({ error: expect.stringContaining('application/json') });
      }
    });
  });
});
