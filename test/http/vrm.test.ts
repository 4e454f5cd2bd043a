import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURE_SKINS, RecordingTransport } from '../helpers/body.ts';
import { useTestApp } from '../helpers/services.ts';
import { multipart, plainGlbFile, vrm0File, VRM_1_FILE, VRM_1_OTHER_FILE, VRMA_FILE } from '../helpers/upload-files.ts';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('POST /api/vrm', () => {
  let backups: string;
  beforeEach(async () => {
    backups = await mkdtemp(join(tmpdir(), 'anima-vrm-'));
  });
  // Before useTestApp (after-hooks run in reverse), so the folder goes once the app has closed.
  afterEach(async () => {
    await rm(backups, { recursive: true, force: true });
  });
  const subject = useTestApp({ startInTest: true, environment: { SKINS_DIR: FIXTURE_SKINS } });
  const start = (environment: Record<string, string> = {}) => subject.start({ environment: { BACKUPS_DIR: backups, ...environment } });
  const stop = () => subject.stop();

  const send = (value: Buffer | string, filename = 'Avatar.vrm') =>
    subject.app.inject({ method: 'POST', url: '/api/vrm', ...multipart([{ name: 'file', filename, value }], subject.harness.services) });
  const get = (url: string) => subject.app.inject({ method: 'GET', url });
  /** What stays in <backups>/vrm: stored models and the choice file, never a partial or staged file. */
  // Staged files would show as `.incoming/<name>`: the staging folder itself is no leftover.
  const stored = async () => (await readdir(join(backups, 'vrm'), { recursive: true }).catch(() => [])).filter((entry) => entry !== '.incoming').sort();

  it('stores a VRM 1.0 by its hash, shows it to every client, and makes current_skin null', async () => {
    await start();
    const transport = new RecordingTransport();
    subject.harness.services.body.addTransport(transport);
    expect((await get('/api/skins/current_skin')).json()).toEqual({ skin: 'default' });
    const data = await readFile(VRM_1_FILE);
    const hex = sha256(data);
    const response = await send(data, 'My Avatar.vrm');
    expect(response.statusCode).toBe(201);
    const model = { name: 'My_Avatar', url: `/vrm/${hex}.vrm`, hash: `sha256:${hex}` };
    expect(response.json()).toEqual({ vrm_model: model, version: '1.0', skin: null });
    expect(transport.messages('vrm_model')).toEqual([{ type: 'vrm_model', ...model }]);
    expect((await get('/api/body/state/model')).json()).toEqual({ vrm_model: model });
    expect((await get('/api/skins/current_skin')).json()).toEqual({ skin: null });
    expect((await get('/api/skins')).json().current_skin).toBeNull();
    expect(await stored()).toEqual([`${hex}.vrm`, 'current.json'].sort());

    const served = await get(model.url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('model/gltf-binary');
    expect(served.rawPayload).toEqual(data);
    const assets = (await get('/api/body/assets/manifest')).json().assets;
    expect(assets).toContainEqual({ url: model.url, hash: model.hash, size: data.length, kind: 'vrm' });
  });

  it('accepts a VRM 0.x model (the VRM extension)', async () => {
    await start();
    const response = await send(await vrm0File(), 'old.vrm');
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ version: '0.x', vrm_model: { name: 'old' } });
  });

  it('answers 415 for a glTF without a VRM extension, a VRM Animation or text, leaving nothing', async () => {
    await start();
    for (const [value, name] of [
      [await plainGlbFile(), 'plain.vrm'],
      [await readFile(VRMA_FILE), 'anim.vrm'],
      ['not a model', 'text.vrm'],
    ] as const) {
      const response = await send(value, name);
      expect(response.statusCode, name).toBe(415);
      expect(response.json().error.code).toBe('unsupported_media_type');
    }
    expect(await stored()).toEqual([]);
    expect((await get('/api/skins/current_skin')).json()).toEqual({ skin: 'default' });
    expect(
      (await subject.app.inject({ method: 'POST', url: '/api/vrm', ...multipart([{ name: 'other', value: 'x' }], subject.harness.services) })).statusCode,
    ).toBe(400);
  });

  it('answers 413 beyond APP_UPLOAD_MAX_BYTES, leaving nothing on disk', async () => {
    await start({ APP_UPLOAD_MAX_BYTES: '30000' });
    const response = await send(await readFile(VRM_1_OTHER_FILE));
    expect(response.statusCode).toBe(413);
    expect(await stored()).toEqual([]);
    expect((await send(await readFile(VRM_1_FILE))).statusCode).toBe(201);
  });

  it('keeps the custom model across a restart', async () => {
    await start();
    const hex = sha256(await readFile(VRM_1_FILE));
    await send(await readFile(VRM_1_FILE));
    await stop();
    await start();
    expect(subject.harness.services.body.getVrmModel()).toEqual({ name: 'Avatar', url: `/vrm/${hex}.vrm`, hash: `sha256:${hex}` });
    expect((await get('/api/skins/current_skin')).json()).toEqual({ skin: null });
  });

  it('serves only stored models under /vrm/', async () => {
    await start();
    expect((await get('/vrm/current.json')).statusCode).toBe(404);
    expect((await get('/vrm/..%2F..%2Fetc%2Fpasswd')).statusCode).toBe(404);
    expect((await get(`/vrm/${'0'.repeat(64)}.vrm`)).statusCode).toBe(404);
  });
});
