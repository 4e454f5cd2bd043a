import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isBanner, spawnAnima, type AnimaProcess } from '../helpers/anima-process.ts';
import { unfinishedUpload } from '../helpers/unfinished-upload.ts';
import { binaryFbx, copyFixtureSkins, VRM_1_FILE } from '../helpers/upload-files.ts';

/**
 * Issue 15, fault 2 (the rest): the real process is killed (SIGKILL) while a large animation upload and
 * a large VRM upload are halfway through their bodies and integration replies are being written to the
 * outbox. After the restart nothing half-written is served, the staged files are gone, and every outbox
 * message the server stored (its debug line, logged once the row is committed) is there.
 */
/** What the server must have staged of each upload before the kill: well into the body. */
const STAGED_BEFORE_KILL = 4 * 1024 * 1024;
const STORED_BEFORE_KILL = 10;
const isStoredOutbox = (line: { msg: string }) => line.msg === 'outbox message stored';

let anima: AnimaProcess | undefined;
let cwd: string | undefined;

afterEach(async () => {
  anima?.child.kill('SIGKILL');
  await anima?.exited;
  if (cwd) await rm(cwd, { recursive: true, force: true });
});

const webOf = async (process: AnimaProcess) => new URL(String((await process.waitFor(isBanner, 60_000)).web));

async function tokenOf(web: URL): Promise<string> {
  return ((await (await fetch(new URL('/api/session', web), { method: 'POST' })).json()) as { token: string }).token;
}

async function upload(web: URL, token: string, path: string, file: Buffer, name: string, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('file', new Blob([file]), name);
  const response = await fetch(new URL(path, web), { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  expect(response.status).toBe(201);
  return response.json();
}

async function largestStaged(folder: string): Promise<number> {
  let largest = 0;
  for (const name of await readdir(folder).catch(() => [])) {
    const size = await stat(join(folder, name)).then(
      (info) => info.size,
      () => 0,
    );
    largest = Math.max(largest, size);
  }
  return largest;
}

/** Chat messages from one fresh source each, until the process dies; each is answered into its outbox. */
async function chatUntilKilled(web: URL, sources: string[]): Promise<void> {
  for (let index = 0; ; index += 1) {
    const source = `out${index}`;
    try {
      const response = await fetch(new URL('/api/integrations/messages', web), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ source, type: 'chat', payload: { text: `hello ${index}` } }),
      });
      await response.arrayBuffer();
    } catch {
      return;
    }
    sources.push(source);
  }
}

describe('the process killed mid-upload and mid-outbox write', () => {
  it('serves no half-written file, sweeps the staged uploads and keeps every stored outbox message', { timeout: 120_000 }, async () => {
    const skins = await copyFixtureSkins();
    cwd = skins;
    const environment = {
      DATABASE_URL: `sqlite:${join(skins, 'anima.sqlite')}`,
      SKINS_DIR: skins,
      BACKUPS_DIR: join(skins, 'backups'),
      LOGGING_LEVEL: 'debug',
    };
    const first = spawnAnima(skins, environment);
    anima = first;
    let web = await webOf(first);
    let token = await tokenOf(web);

    // What was whole before the kill: an animation upload and the custom model shown.
    const animation = binaryFbx();
    const whole = (await upload(web, token, '/api/animations/upload', animation, 'wave.fbx', { state: 'think' })) as { upload_id: string; url: string };
    const model = await readFile(VRM_1_FILE);
    const shown = (await upload(web, token, '/api/vrm', model, 'model.vrm')) as { vrm_model: { url: string } };

    const sources: string[] = [];
    const chatting = chatUntilKilled(web, sources);
    const total = 40 * 1024 * 1024;
    const sockets = [
      unfinishedUpload(web, token, '/api/animations/upload', { state: 'think' }, 'big.fbx', total),
      unfinishedUpload(web, token, '/api/vrm', {}, 'big.vrm', total),
    ];
    const animationStaging = join(skins, 'temp', '.incoming');
    const modelStaging = join(skins, 'backups', 'vrm', '.incoming');
    await vi.waitFor(
      async () => {
        expect(await largestStaged(animationStaging)).toBeGreaterThanOrEqual(STAGED_BEFORE_KILL);
        expect(await largestStaged(modelStaging)).toBeGreaterThanOrEqual(STAGED_BEFORE_KILL);
        expect(first.lines.filter(isStoredOutbox).length).toBeGreaterThanOrEqual(STORED_BEFORE_KILL);
      },
      { timeout: 30_000, interval: 50 },
    );
    first.child.kill('SIGKILL');
    await first.exited;
    await chatting;
    for (const socket of sockets) socket.destroy();
    const stored = first.lines.filter(isStoredOutbox).map((line) => String(line.source));
    expect(stored.length).toBeGreaterThanOrEqual(STORED_BEFORE_KILL);

    anima = spawnAnima(skins, environment);
    web = await webOf(anima);
    token = await tokenOf(web);
    expect(await readdir(animationStaging)).toEqual([]);
    expect(await readdir(modelStaging)).toEqual([]);
    const { uploads } = (await (await fetch(new URL('/api/animations/uploads', web))).json()) as { uploads: Array<{ upload_id: string }> };
    expect(uploads.map((item) => item.upload_id)).toEqual([whole.upload_id]);
    expect(Buffer.from(await (await fetch(new URL(whole.url, web))).arrayBuffer())).toEqual(animation);
    expect(Buffer.from(await (await fetch(new URL(shown.vrm_model.url, web))).arrayBuffer())).toEqual(model);

    for (const source of stored) {
      const outbox = (await (await fetch(new URL(`/api/integrations/outbox?source=${source}`, web))).json()) as { messages: unknown[] };
      expect(outbox.messages, source).toHaveLength(1);
    }
  });
});
