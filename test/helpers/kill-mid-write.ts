import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { isBanner, spawnAnima, type AnimaProcess } from './anima-process.ts';
import type { PrivateMariaDb } from './private-mariadb.ts';

/**
 * Issue 15, fault 2 (in part): the real process is killed (SIGKILL) while acknowledged writes stream in:
 * chat messages (history rows), stored integration messages and configuration saves. After a restart
 * over the same database, every write the server acknowledged is there. Shared by the SQLite and
 * MariaDB fault files, so each stays short.
 */
const ACKNOWLEDGED_BEFORE_KILL = 15;

interface Writes {
  chats: string[];
  notes: string[];
  /** Config values in the order they were sent, and the ones acknowledged. */
  locationsSent: string[];
  locationsAcknowledged: string[];
}

async function post(base: string, path: string, body: unknown): Promise<number> {
  try {
    const response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await response.arrayBuffer();
    return response.status;
  } catch {
    // The process died under the request: not acknowledged.
    return 0;
  }
}

/** Three streams of writes, each the next as soon as the last is answered, until the process dies. */
function writeUntilKilled(base: string, writes: Writes, onAcknowledged: () => void): Promise<void> {
  let alive = true;
  const stream = async (next: (index: number) => Promise<boolean>) => {
    for (let index = 0; alive; index += 1) {
      if (!(await next(index))) alive = false;
      else onAcknowledged();
    }
  };
  return Promise.all([
    stream(async (index) => {
      const text = `chat ${index}`;
      // One source each: CHAT_HISTORY trims a conversation, never another.
      const ok = (await post(base, '/api/integrations/messages', { source: `kill${index}`, type: 'chat', payload: { text } })) === 202;
      if (ok) writes.chats.push(text);
      return ok;
    }),
    stream(async (index) => {
      const text = `note ${index}`;
      const ok = (await post(base, '/api/integrations/messages', { source: 'notes', type: 'note', payload: { text } })) === 202;
      if (ok) writes.notes.push(text);
      return ok;
    }),
    stream(async (index) => {
      const value = `place ${index}`;
      writes.locationsSent.push(value);
      const ok = (await post(base, '/api/config', { key: 'PERSONA_LOCATION', value })) === 200;
      if (ok) writes.locationsAcknowledged.push(value);
      return ok;
    }),
  ]).then(() => undefined);
}

const webOf = async (anima: AnimaProcess) => String((await anima.waitFor(isBanner, 60_000)).web).replace(/\/$/, '');

/** Runs the scenario over `database` (a private MariaDB) or a SQLite file in a fresh folder; cleans up after. */
export async function killMidWrite(database: PrivateMariaDb | undefined): Promise<void> {
  const cwd = await mkdtemp(join(tmpdir(), 'anima-kill-'));
  let anima: AnimaProcess | undefined;
  try {
    const environment = {
      DATABASE_URL: database?.url ?? `sqlite:${join(cwd, 'anima.sqlite')}`,
      CHAT_RATE_LIMIT_BURST: '100000',
      CHAT_RATE_LIMIT_PER_MINUTE: '100000',
    };
    const first = spawnAnima(cwd, environment);
    anima = first;
    const base = await webOf(first);
    const writes: Writes = { chats: [], notes: [], locationsSent: [], locationsAcknowledged: [] };
    let acknowledged = 0;
    await writeUntilKilled(base, writes, () => {
      acknowledged += 1;
      if (acknowledged === ACKNOWLEDGED_BEFORE_KILL) first.child.kill('SIGKILL');
    });
    await first.exited;

    anima = spawnAnima(cwd, environment);
    const restarted = await webOf(anima);
    const history = (await (await fetch(`${restarted}/api/history/chat?limit=1000`)).json()) as { messages: Array<{ text: string; sender_id: string }> };
    const savedChats = history.messages.filter((message) => message.sender_id !== 'self').map((message) => message.text);
    expect(savedChats).toEqual(expect.arrayContaining(writes.chats));
    const notes = (await (await fetch(`${restarted}/api/integrations/messages?source=notes&limit=500`)).json()) as {
      messages: Array<{ payload: { text: string } }>;
    };
    expect(notes.messages.map((message) => message.payload.text)).toEqual(expect.arrayContaining(writes.notes));
    // The last acknowledged save, or one sent after it whose answer the kill cut off.
    const { value } = (await (await fetch(`${restarted}/api/config/PERSONA_LOCATION`)).json()) as { value: string };
    const lastAcknowledged = writes.locationsAcknowledged.at(-1);
    expect(writes.locationsSent.slice(lastAcknowledged === undefined ? 0 : writes.locationsSent.indexOf(lastAcknowledged))).toContain(value);
    expect(writes.chats.length + writes.notes.length + writes.locationsAcknowledged.length).toBeGreaterThanOrEqual(ACKNOWLEDGED_BEFORE_KILL);
  } finally {
    anima?.child.kill('SIGKILL');
    await anima?.exited;
    await rm(cwd, { recursive: true, force: true });
  }
}
