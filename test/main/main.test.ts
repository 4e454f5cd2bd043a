import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { get as httpsGet } from 'node:https';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isBanner, spawnAnima, type AnimaProcess } from '../helpers/anima-process.ts';
import { freshDatabase } from '../helpers/dialects.ts';
import { openSocket } from '../helpers/sockets.ts';
import { freePort } from '../helpers/free-port.ts';

interface About {
  started_at: string;
  ports: { http: number; https: number | null; compat: number };
  database: { dialect: string };
  system: { pid: number };
}

async function getJson<T>(url: URL | string): Promise<T> {
  return (await (await fetch(url)).json()) as T;
}

function postJson(url: URL, body: unknown): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

const ignoring = (key: string) => (line: { level: number; key?: unknown }) => line.level === 40 && line.key === key;

describe('npm start (src/main.ts)', () => {
  let cwd: string;
  let anima: AnimaProcess | undefined;

  beforeEach(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'anima-main-'));
  });
  afterEach(async () => {
    if (anima && anima.child.exitCode === null) {
      anima.child.kill('SIGKILL');
      await anima.exited;
    }
    anima = undefined;
    await rm(cwd, { recursive: true, force: true });
  });

  it('starts on the embedded defaults and prints both URLs', async () => {
    anima = spawnAnima(cwd, {});
    const banner = await anima.waitFor(isBanner);
    expect(banner.web).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(banner.compat).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(banner.msg).toContain(String(banner.web));
    expect(banner.msg).toContain(String(banner.compat));
    expect(banner.database).toBe('sqlite');
    expect(existsSync(join(cwd, 'backups', 'anima.sqlite'))).toBe(true);
    const about = await getJson<About>(new URL('/api/about', String(banner.web)));
    expect(about.ports.http).toBe(Number(new URL(String(banner.web)).port));
    expect(about.ports.compat).toBe(Number(new URL(String(banner.compat)).port));
    expect(await (await fetch(String(banner.compat))).text()).toBe('Ollama is running');
  });

  it('finishes in-flight writes, closes sockets and the database on SIGTERM', async () => {
    anima = spawnAnima(cwd, { WEB_DEBUG: '1' });
    const banner = await anima.waitFor(isBanner);
    const web = new URL(String(banner.web));
    const client = await openSocket(`ws://${web.host}/logs`);
    client.socket.send(JSON.stringify({ type: 'hello' }));
    await client.next((message) => (message as { type?: string }).type === 'ready');

    const body = JSON.stringify({ key: 'OPENAI_MODEL', value: 'saved-during-shutdown' });
    const answer = new Promise<number>((resolve, reject) => {
      const request = httpRequest(
        {
          host: web.hostname,
          port: web.port,
          path: '/api/config',
          method: 'POST',
          // The server's "100 Continue" says it has read the headers: the request is in flight from then on.
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      request.on('continue', () => {
        request.write(body.slice(0, 10));
        anima?.child.kill('SIGTERM');
        // The rest of the body comes once the server has begun to shut down.
        void anima?.waitFor((line) => line.msg === 'shutting down').then(() => request.end(body.slice(10)), reject);
      });
    });

    expect(await answer).toBe(200);
    expect(await client.closed).toBe(1001);
    expect(await anima.exited).toBe(0);
    const database = new SqliteDatabase(join(cwd, 'backups', 'anima.sqlite'), { readonly: true });
    expect(database.prepare('SELECT value FROM config_entries WHERE name = ?').get('OPENAI_MODEL')).toEqual({ value: 'saved-during-shutdown' });
    database.close();
  });

  it('restarts in place on POST /api/system/restart, keeping saved configuration', async () => {
    anima = spawnAnima(cwd, {});
    const first = await anima.waitFor(isBanner);
    const web = String(first.web);
    const before = await getJson<About>(new URL('/api/about', web));
    await fetch(new URL('/api/config', web), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: 'CHAT_HISTORY', value: 33 }),
    });
    const restart = await fetch(new URL('/api/system/restart', web), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"confirm": true}',
    });
    expect(restart.status).toBe(202);
    const second = await anima.waitFor((line) => isBanner(line) && line !== first);
    const after = await getJson<About>(new URL('/api/about', String(second.web)));
    expect(after.system.pid).toBe(before.system.pid);
    expect(Date.parse(after.started_at)).toBeGreaterThan(Date.parse(before.started_at));
    const config = await getJson<{ value: string }>(new URL('/api/config/CHAT_HISTORY', String(second.web)));
    expect(config).toMatchObject({ value: '33', source: 'override' });
    expect(anima.child.exitCode).toBeNull();
  });

  it('serves HTTPS too when the certificate variables name files', async () => {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem', '-days', '1', '-subj', '/CN=localhost'],
      { cwd, stdio: 'ignore' },
    );
    anima = spawnAnima(cwd, { APP_WEBUI_TLS_CERT: 'cert.pem', APP_WEBUI_TLS_KEY: 'key.pem', APP_WEBUI_HTTPS_PORT: '0' });
    const banner = await anima.waitFor(isBanner);
    expect(banner.https).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/$/);
    const body = await new Promise<string>((resolve, reject) => {
      httpsGet(new URL('/api/about', String(banner.https)), { rejectUnauthorized: false }, (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve(text));
      }).on('error', reject);
    });
    expect(JSON.parse(body).ports.https).toBe(Number(new URL(String(banner.https)).port));
  });

  it('refuses to start with an invalid variable and says which', async () => {
    anima = spawnAnima(cwd, { APP_WEBUI_HTTP_PORT: 'eighty' });
    expect(await anima.exited).toBe(1);
    expect(anima.stderr()).toContain('APP_WEBUI_HTTP_PORT');
  });

  it.each(['APP_WEBUI_HTTP_PORT', 'COMPAT_API_SERVER_PORT'])('explains a port that is already taken, names %s and exits', async (variable) => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      anima = spawnAnima(cwd, { [variable]: String(port) });
      const fatal = await anima.waitFor((line) => line.level === 60);
      expect(fatal.msg).toContain(`port ${port}`);
      expect(fatal.msg).toContain('in use');
      expect(fatal.msg).toContain(`set ${variable} to another port`);
      expect(fatal.err).toBeUndefined();
      expect(await anima.exited).toBe(1);
    } finally {
      blocker.close();
    }
  });

  it('starts without a saved port that collides with another listener, keeps it saved and shows why', async () => {
    const compatPort = await freePort();
    anima = spawnAnima(cwd, { COMPAT_API_SERVER_PORT: String(compatPort) });
    await anima.waitFor(isBanner);
    anima.child.kill('SIGTERM');
    await anima.exited;
    // The API refuses this value now; a database saved before that, or edited by hand, may still hold it.
    const database = new SqliteDatabase(join(cwd, 'backups', 'anima.sqlite'));
    database
      .prepare('INSERT INTO config_entries (name, value, updated_at) VALUES (?, ?, ?)')
      .run('APP_WEBUI_HTTP_PORT', String(compatPort), new Date().toISOString());
    database.close();

    anima = spawnAnima(cwd, { COMPAT_API_SERVER_PORT: String(compatPort) });
    const warning = await anima.waitFor(ignoring('APP_WEBUI_HTTP_PORT'));
    expect(warning.reason).toContain('COMPAT_API_SERVER_PORT');
    expect(warning.msg).toContain('Ignoring the saved APP_WEBUI_HTTP_PORT');
    const banner = await anima.waitFor(isBanner);
    expect(banner.compat).toBe(`http://127.0.0.1:${compatPort}/`);
    const entry = await getJson(new URL('/api/config/APP_WEBUI_HTTP_PORT', String(banner.web)));
    expect(entry).toMatchObject({
      value: '0',
      source: 'environment',
      ignored: { value: String(compatPort), reason: expect.stringContaining('COMPAT_API_SERVER_PORT') },
    });
    const listing = await getJson<{ entries: Array<{ key: string; ignored?: unknown }> }>(new URL('/api/config', String(banner.web)));
    expect(listing.entries.filter((item) => item.ignored).map((item) => item.key)).toEqual(['APP_WEBUI_HTTP_PORT']);
  });

  it('restarts on the environment port when a saved port is taken, instead of stopping', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as AddressInfo).port;
    try {
      anima = spawnAnima(cwd, {});
      const first = await anima.waitFor(isBanner);
      expect((await postJson(new URL('/api/config', String(first.web)), { key: 'APP_WEBUI_HTTP_PORT', value: taken })).status).toBe(200);
      expect((await postJson(new URL('/api/system/restart', String(first.web)), { confirm: true })).status).toBe(202);
      const warning = await anima.waitFor(ignoring('APP_WEBUI_HTTP_PORT'));
      expect(warning.reason).toContain(`port ${taken}`);
      expect(warning.reason).toContain('in use');
      const second = await anima.waitFor((line) => isBanner(line) && line !== first);
      expect(new URL(String(second.web)).port).not.toBe(String(taken));
      const entry = await getJson(new URL('/api/config/APP_WEBUI_HTTP_PORT', String(second.web)));
      expect(entry).toMatchObject({ source: 'environment', ignored: { value: String(taken), reason: expect.stringContaining('in use') } });
      expect(anima.child.exitCode).toBeNull();
    } finally {
      blocker.close();
    }
  });

  it('warns when it listens beyond loopback without APP_API_KEY', async () => {
    anima = spawnAnima(cwd, { APP_WEBUI_HOST: '0.0.0.0' });
    const warning = await anima.waitFor((line) => line.level === 40 && line.msg.includes('APP_API_KEY'));
    expect(warning.hosts).toEqual(['0.0.0.0']);
  });

  (process.env.MYSQL_TEST_URL ? it : it.skip)('runs on MariaDB, creating the database named in DATABASE_URL', async () => {
    const database = await freshDatabase('mysql');
    await database.drop();
    try {
      anima = spawnAnima(cwd, { DATABASE_URL: database.url });
      const banner = await anima.waitFor(isBanner);
      expect(banner.database).toBe('mysql');
      const about = await getJson<About>(new URL('/api/about', String(banner.web)));
      expect(about.database.dialect).toBe('mysql');
    } finally {
      anima?.child.kill('SIGTERM');
      await anima?.exited;
      await database.drop();
    }
  });
});
