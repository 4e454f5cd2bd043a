import { readFile, readdir, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_PENDING_HELLOS_PER_ADDRESS } from '../../src/realtime/socket-gate.ts';
import { isBanner, spawnAnima, type AnimaProcess } from '../helpers/anima-process.ts';
import { openRawWebSocket, type RawWebSocket } from '../helpers/raw-websocket.ts';
import { openSocket } from '../helpers/sockets.ts';
import { unfinishedUpload } from '../helpers/unfinished-upload.ts';
import { copyFixtureSkins } from '../helpers/upload-files.ts';

/**
 * Issue 15, fault 5: slow and hostile clients against the real process. Node's own timers decide the
 * slow cases (APP_HEADERS_TIMEOUT_S, APP_REQUEST_TIMEOUT_S, APP_UPLOAD_IDLE_TIMEOUT_S, set short here);
 * the socket gate's hello timeout (5 s) ends the hello-less sockets.
 */
const HOSTILE_SOCKETS = 10_000;
const BATCH = 250;
/**
 * What 10,000 sockets waiting for their hello may add to the server's resident memory. Measured at
 * about 60 MiB (a `ws` socket, its parser and its timer each); the bound leaves room for the heap's growth.
 */
const HOSTILE_RSS_BOUND = 400 * 1_048_576;

let cwd: string;
let anima: AnimaProcess;
let web: URL;
let compat: URL;

beforeAll(async () => {
  cwd = await copyFixtureSkins();
  anima = spawnAnima(cwd, {
    DATABASE_URL: `sqlite:${join(cwd, 'anima.sqlite')}`,
    SKINS_DIR: cwd,
    BACKUPS_DIR: join(cwd, 'backups'),
    APP_HEADERS_TIMEOUT_S: '1',
    APP_REQUEST_TIMEOUT_S: '2',
    APP_UPLOAD_IDLE_TIMEOUT_S: '1',
  });
  const banner = await anima.waitFor(isBanner, 60_000);
  web = new URL(String(banner.web));
  compat = new URL(String(banner.compat));
}, 90_000);

afterAll(async () => {
  anima?.child.kill('SIGKILL');
  await anima?.exited;
  if (cwd) await rm(cwd, { recursive: true, force: true });
});

const served = async (url: URL) => (await fetch(url)).status;

/** Resident memory of the server process, from the kernel. */
async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) * 1024;
}

/** Sends request headers one byte every 100 ms, never ending them; resolves with what the server answered once it closed. */
function slowloris(url: URL): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    let answer = '';
    const text = `GET /api/version HTTP/1.1\r\nhost: ${url.host}\r\nx-slow: ${'a'.repeat(10_000)}`;
    let at = 0;
    const drip = setInterval(() => {
      if (at < text.length) socket.write(text[at++] as string);
    }, 100);
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(drip);
      resolve(answer);
    });
  });
}

describe('slow and hostile clients', () => {
  it('cuts off a slowloris on both ports with 408 and serves other clients meanwhile', async () => {
    const cutOff = Promise.all([slowloris(web), slowloris(compat)]);
    expect(await served(new URL('/api/about', web))).toBe(200);
    expect(await served(new URL('/api/version', compat))).toBe(200);
    for (const answer of await cutOff) expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('times out an upload that stops sending and removes its staged file', async () => {
    const token = ((await (await fetch(new URL('/api/session', web), { method: 'POST' })).json()) as { token: string }).token;
    const upload = unfinishedUpload(web, token, '/api/animations/upload', { state: 'think' }, 'stalled.fbx', 8 * 1_048_576);
    const staging = join(cwd, 'temp', '.incoming');
    await vi.waitFor(async () => expect(await readdir(staging)).not.toEqual([]), { timeout: 20_000, interval: 50 });
    await new Promise((resolve) => upload.once('close', resolve));
    await vi.waitFor(async () => expect(await readdir(staging)).toEqual([]), { timeout: 20_000, interval: 50 });
    expect(await served(new URL('/api/animations/uploads', web))).toBe(200);
  });

  it('holds 10,000 sockets that never say hello within a memory bound, admits a real client meanwhile, and closes them all', { timeout: 150_000 }, async () => {
    const pid = anima.child.pid as number;
    const before = await rssOf(pid);
    // Each from its own loopback address among 127.0.1.0 and on, no more per address than the gate lets
    // wait, opened in parallel batches: every socket is let in and waits for a hello that never comes.
    const addressOf = (index: number) => {
      const address = Math.floor(index / MAX_PENDING_HELLOS_PER_ADDRESS);
      return `127.0.${1 + Math.floor(address / 250)}.${address % 250}`;
    };
    const sockets: RawWebSocket[] = [];
    for (let first = 0; first < HOSTILE_SOCKETS; first += BATCH) {
      const batch = Array.from({ length: Math.min(BATCH, HOSTILE_SOCKETS - first) }, (_, offset) =>
        openRawWebSocket(Number(web.port), '/ws', {}, addressOf(first + offset)),
      );
      sockets.push(...(await Promise.all(batch)));
    }
    // Each is let in or, when the loaded server has not read its upgrade within APP_HEADERS_TIMEOUT_S, refused with 408.
    expect(sockets.filter((socket) => socket.status !== 101 && socket.status !== 408)).toEqual([]);
    expect(sockets.filter((socket) => socket.status === 101).length).toBeGreaterThan(HOSTILE_SOCKETS / 2);
    const during = await rssOf(pid);
    expect(during - before).toBeLessThan(HOSTILE_RSS_BOUND);

    const token = ((await (await fetch(new URL('/api/session', web), { method: 'POST' })).json()) as { token: string }).token;
    const real = await openSocket(`ws://${web.host}/ws`);
    real.socket.send(JSON.stringify({ type: 'hello', token, has_assets: [] }));
    await real.next((message) => (message as { type: string }).type === 'vrm_face', 30_000);
    expect(await served(new URL('/api/about', web))).toBe(200);

    await Promise.all(sockets.map((socket) => socket.ended));
    real.socket.close();
  });
});
