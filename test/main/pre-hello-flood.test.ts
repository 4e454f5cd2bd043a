import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PENDING_HELLOS_PER_ADDRESS } from '../../src/realtime/socket-gate.ts';
import { isBanner, spawnAnima, type AnimaProcess } from '../helpers/anima-process.ts';
import { openRawWebSocket, type RawWebSocket } from '../helpers/raw-websocket.ts';

const MIB = 1_048_576;
/** What the hostile client tries to push through one refused socket. */
const FLOOD_BYTES = 128 * MIB;
/** Far below what the flood would cost if the server kept it, far above the noise of a running process. */
const RSS_GROWTH_LIMIT = 64 * MIB;

async function residentBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return Number(kib) * 1024;
}

/** Writes 1 MiB frames until the flood is through or the server cut the connection; returns what got out. */
async function flood(client: RawWebSocket): Promise<number> {
  const frame = Buffer.alloc(MIB, 0x61);
  let sent = 0;
  try {
    while (sent < FLOOD_BYTES) {
      await client.frame(frame);
      sent += frame.length;
    }
  } catch {
    // The server destroyed the connection: the write failed, which is the point.
  }
  return sent;
}

describe('sockets before their hello (a real process, flooded)', () => {
  let cwd: string;
  let anima: AnimaProcess;
  let port = 0;
  let pid = 0;

  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'anima-flood-'));
    anima = spawnAnima(cwd, { APP_TRUST_LOOPBACK: 'false', APP_API_KEY: 'k3y', WEB_DEBUG: '1' });
    const banner = await anima.waitFor(isBanner);
    port = Number(new URL(String(banner.web)).port);
    pid = anima.child.pid ?? 0;
  });
  afterAll(async () => {
    anima.child.kill('SIGKILL');
    await anima.exited;
    await rm(cwd, { recursive: true, force: true });
  });

  it('keeps nothing of a client that ignores the 4401 and keeps sending 1 MiB frames', async () => {
    const before = await residentBytes(pid);
    const clients = await Promise.all(['/ws', '/ws', '/api/body/ws', '/api/audio/stream', '/logs'].map((path) => openRawWebSocket(port, path)));
    expect(clients.map((client) => client.status)).toEqual([101, 101, 101, 101, 101]);
    await Promise.all(clients.map((client) => client.frame(JSON.stringify({ type: 'hello', token: 'wrong' }), false)));
    const sent = await Promise.all(clients.map(flood));
    await Promise.all(clients.map((client) => client.ended));
    for (const bytes of sent) expect(bytes).toBeLessThan(FLOOD_BYTES);
    expect((await residentBytes(pid)) - before).toBeLessThan(RSS_GROWTH_LIMIT);
  });

  it('cuts off a first frame far larger than any hello while it arrives', async () => {
    const before = await residentBytes(pid);
    const clients = await Promise.all(['/ws', '/api/audio/stream'].map((path) => openRawWebSocket(port, path)));
    const sent = await Promise.all(
      clients.map(async (client) => {
        await client.frame(Buffer.alloc(MIB, 0x62)).catch(() => undefined);
        return flood(client);
      }),
    );
    await Promise.all(clients.map((client) => client.ended));
    for (const bytes of sent) expect(bytes).toBeLessThan(FLOOD_BYTES);
    expect((await residentBytes(pid)) - before).toBeLessThan(RSS_GROWTH_LIMIT);
  });

  it('refuses the upgrade with 429 once one address has too many sockets waiting for their hello', async () => {
    const waiting = await Promise.all(Array.from({ length: MAX_PENDING_HELLOS_PER_ADDRESS }, () => openRawWebSocket(port, '/api/body/ws')));
    expect(waiting.every((client) => client.status === 101)).toBe(true);
    const extra = await openRawWebSocket(port, '/api/body/ws');
    expect(extra.status).toBe(429);
    // A socket that says hello leaves the queue, and the next one gets in again.
    await waiting[0]?.frame(JSON.stringify({ type: 'hello', token: 'k3y' }), false);
    await expect.poll(async () => (await openRawWebSocket(port, '/api/body/ws')).status).toBe(101);
    for (const client of [...waiting, extra]) client.socket.destroy();
  });
});
