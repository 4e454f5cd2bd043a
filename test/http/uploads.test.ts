import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ComponentRoots } from '../../src/components/discovery.ts';
import { shippedRoots } from '../helpers/component-roots.ts';
import { useTestApp } from '../helpers/services.ts';
import { ASCII_FBX_FILE, binaryFbx, copyFixtureSkins, multipart, VRM_1_FILE, VRMA_FILE, type Part } from '../helpers/upload-files.ts';

const DESCRIPTOR = { intro: { start_frame: 0, end_frame: 9 }, loop: { start_frame: 10, end_frame: 39 }, fps: 30 };

describe('temporary animation uploads', () => {
  let skins: string;
  // Before useTestApp (after-hooks run in reverse), so the copy goes once the app has closed.
  afterEach(async () => {
    await rm(skins, { recursive: true, force: true });
  });
  const subject = useTestApp({ startInTest: true });

  async function start(environment: Record<string, string> = {}, componentRoots: Partial<ComponentRoots> = {}) {
    skins = await copyFixtureSkins();
    await subject.start({ environment: { SKINS_DIR: skins, ...environment }, componentRoots });
  }

  const upload = (parts: Part[]) => subject.app.inject({ method: 'POST', url: '/api/animations/upload', ...multipart(parts, subject.harness.services) });
  const fbx = async (filename = 'Pondering.fbx') => ({ name: 'file', filename, value: await readFile(ASCII_FBX_FILE) });
  const get = (url: string) => subject.app.inject({ method: 'GET', url });
  const promote = (payload: object) => subject.app.inject({ method: 'POST', url: '/api/animations/promote', payload });
  /** Everything under skins/temp except the (empty) staging folder. */
  const tempEntries = async () => (await readdir(join(skins, 'temp'), { recursive: true }).catch(() => [])).filter((entry) => entry !== '.incoming');

  describe('POST /api/animations/upload', () => {
    it('stores an ASCII FBX with its descriptor and meta, and a play of its state picks it at once', async () => {
      await start();
      const response = await upload([{ name: 'state', value: 'think' }, { name: 'descriptor', value: JSON.stringify(DESCRIPTOR) }, await fbx()]);
      expect(response.statusCode).toBe(201);
      const answer = response.json();
      expect(answer).toEqual({
        upload_id: expect.stringMatching(/^[0-9a-f]{32}$/),
        state: 'think',
        file: 'Pondering.fbx',
        url: `/skins/temp/${answer.upload_id}/animations/think/Pondering.fbx`,
        descriptor: DESCRIPTOR,
        expires_at: expect.any(String),
      });
      const root = join(skins, 'temp', answer.upload_id);
      expect(await readFile(join(root, 'animations/think/Pondering.fbx'))).toEqual(await readFile(ASCII_FBX_FILE));
      expect(JSON.parse(await readFile(join(root, 'animations/think/Pondering.fbx.json'), 'utf8'))).toEqual(DESCRIPTOR);
      const meta = JSON.parse(await readFile(join(root, 'meta.json'), 'utf8'));
      expect(meta).toEqual({
        upload_id: answer.upload_id,
        state: 'think',
        file: 'Pondering.fbx',
        original_name: 'Pondering.fbx',
        size: (await readFile(ASCII_FBX_FILE)).length,
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        created_at: expect.any(String),
        expires_at: answer.expires_at,
        has_descriptor: true,
      });
      expect(Date.parse(meta.expires_at) - Date.parse(meta.created_at)).toBe(7 * 86_400_000);
      expect((await get('/api/animations/uploads')).json()).toEqual({ uploads: [{ ...meta, url: answer.url }] });

      await subject.app.inject({ method: 'POST', url: '/api/animation_state', payload: { state: 'think', context_id: 'm1' } });
      expect((await get('/api/animation_state')).json()).toMatchObject({ state: 'think', file: 'Pondering.fbx', url: answer.url, descriptor: DESCRIPTOR });
      const served = await get(answer.url);
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload).toEqual(await readFile(ASCII_FBX_FILE));
    });

    it('recognises binary FBX and VRMA by content, whatever their names, and takes the descriptor as a file', async () => {
      await start();
      const binary = await upload([
        { name: 'file', filename: 'clip.bin', value: binaryFbx() },
        { name: 'state', value: 'write' },
      ]);
      expect(binary.statusCode).toBe(201);
      expect(binary.json()).toMatchObject({ state: 'write', file: 'clip.bin.fbx', descriptor: null });
      const vrma = await upload([
        { name: 'state', value: 'idle' },
        { name: 'file', filename: 'dance.fbx', value: await readFile(VRMA_FILE) },
        { name: 'descriptor', filename: 'dance.vrma.json', value: JSON.stringify({ loop: { start_frame: 0, end_frame: 59 } }) },
      ]);
      expect(vrma.statusCode).toBe(201);
      expect(vrma.json()).toMatchObject({ state: 'idle', file: 'dance.vrma', descriptor: { loop: { start_frame: 0, end_frame: 59 } } });
      const listed = (await get('/api/animations/uploads')).json().uploads;
      expect(listed.map((entry: { file: string }) => entry.file).sort()).toEqual(['clip.bin.fbx', 'dance.vrma']);
      expect((await get('/api/body/animations/idle')).json().variants.loop.map((file: { file: string }) => file.file)).toEqual(['dance.vrma']);
    });

    it('answers 415 for a file that is not FBX or VRMA by content (text, a VRM model), storing nothing', async () => {
      await start();
      const text = await upload([
        { name: 'state', value: 'think' },
        { name: 'file', filename: 'Thinking.fbx', value: 'just some text\n' },
      ]);
      expect(text.statusCode).toBe(415);
      expect(text.json().error.code).toBe('unsupported_media_type');
      const model = await upload([
        { name: 'state', value: 'think' },
        { name: 'file', filename: 'model.vrma', value: await readFile(VRM_1_FILE) },
      ]);
      expect(model.statusCode).toBe(415);
      expect(await tempEntries()).toEqual([]);
      expect(await readdir(join(skins, 'temp', '.incoming'))).toEqual([]);
    });

    it('answers 400 for a missing or unknown state, a missing file or a broken descriptor, storing nothing', async () => {
      await start();
      const missingState = await upload([await fbx()]);
      expect(missingState.statusCode).toBe(400);
      expect(missingState.json().error.code).toBe('invalid_request');
      const unknownState = await upload([{ name: 'state', value: 'fly' }, await fbx()]);
      expect(unknownState.statusCode).toBe(400);
      expect(unknownState.json().error.details).toEqual({ known_states: ['idle', 'talk', 'think', 'write'] });
      expect((await upload([{ name: 'state', value: 'think' }])).statusCode).toBe(400);
      const notJson = await upload([{ name: 'state', value: 'think' }, { name: 'descriptor', value: '{"loop": ' }, await fbx()]);
      expect(notJson.statusCode).toBe(400);
      const invalid = await upload([
        { name: 'state', value: 'think' },
        { name: 'descriptor', filename: 'x.fbx.json', value: JSON.stringify({ loop: { start_frame: 30, end_frame: 10 } }) },
        await fbx(),
      ]);
      expect(invalid.statusCode).toBe(400);
      expect(invalid.json().error.message).toContain('end_frame must not come before start_frame');
      expect(await tempEntries()).toEqual([]);
      expect((await get('/api/animations/uploads')).json()).toEqual({ uploads: [] });
      const notMultipart = await subject.app.inject({ method: 'POST', url: '/api/animations/upload', payload: { state: 'think' } });
      expect(notMultipart.statusCode).toBe(415);
    });

    it('answers 413 beyond APP_UPLOAD_MAX_BYTES and leaves nothing on disk', async () => {
      await start({ APP_UPLOAD_MAX_BYTES: '4096' });
      const response = await upload([{ name: 'state', value: 'think' }, await fbx()]);
      expect(response.statusCode).toBe(413);
      expect(response.json().error.code).toBe('payload_too_large');
      expect(await tempEntries()).toEqual([]);
      expect(await readdir(join(skins, 'temp', '.incoming'))).toEqual([]);
      expect(
        (
          await upload([
            { name: 'state', value: 'think' },
            { name: 'file', filename: 'small.fbx', value: binaryFbx() },
          ])
        ).statusCode,
      ).toBe(201);
    });

    it('sanitises hostile file names so the file never leaves its upload folder', async () => {
      await start();
      const names = ['../../../evil.fbx', '/etc/passwd', '..\\..\\win.fbx', 'nul\0byte.fbx', `${'x'.repeat(5000)}.fbx`];
      for (const filename of names) {
        const response = await upload([
          { name: 'state', value: 'think' },
          { name: 'file', filename, value: binaryFbx() },
        ]);
        expect(response.statusCode, filename).toBe(201);
        const { upload_id: id, file } = response.json();
        expect(file).toMatch(/^[A-Za-z0-9._-]{1,100}\.fbx$/);
        expect(file.startsWith('.')).toBe(false);
        expect(await readdir(join(skins, 'temp', id, 'animations', 'think'))).toEqual([file]);
      }
      expect((await readdir(skins)).sort()).toEqual(['README.md', 'alt', 'default', 'temp']);
      expect((await readdir(join(skins, 'default', 'animations', 'think'))).sort()).toEqual(['Thinking.fbx', 'Thinking.fbx.json']);
    });
  });

  describe('DELETE /api/animations/uploads/{id}', () => {
    it('removes the upload and its search path (204), then 404; a malformed id is 400', async () => {
      await start();
      const { upload_id: id } = (await upload([{ name: 'state', value: 'think' }, await fbx()])).json();
      const removed = await subject.app.inject({ method: 'DELETE', url: `/api/animations/uploads/${id}` });
      expect(removed.statusCode).toBe(204);
      expect(await tempEntries()).toEqual([]);
      expect((await subject.app.inject({ method: 'DELETE', url: `/api/animations/uploads/${id}` })).statusCode).toBe(404);
      expect((await subject.app.inject({ method: 'DELETE', url: '/api/animations/uploads/..%2F..%2Fdefault' })).statusCode).toBe(400);
      expect(subject.harness.services.body.library.temporaryPaths()).toEqual([]);
      await subject.app.inject({ method: 'POST', url: '/api/animation_state', payload: { state: 'think' } });
      expect((await get('/api/animation_state')).json()).toMatchObject({ file: 'Thinking.fbx', url: '/skins/default/animations/think/Thinking.fbx' });
    });
  });

  describe('POST /api/animations/promote', () => {
    it('is 403 promotion_disabled unless COMPANION_PROMOTE_ENABLED=1, and keeps the upload', async () => {
      await start();
      const { upload_id: id } = (await upload([{ name: 'state', value: 'think' }, await fbx()])).json();
      const refused = await promote({ upload_id: id });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('promotion_disabled');
      expect((await get('/api/animations/uploads')).json().uploads).toHaveLength(1);
    });

    it('copies the upload and its descriptor into the active skin, removes the upload, and refuses a clash unless overwrite', async () => {
      await start({ COMPANION_PROMOTE_ENABLED: '1' });
      const first = (await upload([{ name: 'state', value: 'think' }, { name: 'descriptor', value: JSON.stringify(DESCRIPTOR) }, await fbx()])).json();
      const promoted = await promote({ upload_id: first.upload_id });
      expect(promoted.statusCode).toBe(200);
      expect(promoted.json()).toEqual({
        promoted: true,
        skin: 'default',
        state: 'think',
        file: 'Pondering.fbx',
        url: '/skins/default/animations/think/Pondering.fbx',
      });
      const folder = join(skins, 'default', 'animations', 'think');
      expect(await readFile(join(folder, 'Pondering.fbx'))).toEqual(await readFile(ASCII_FBX_FILE));
      expect(JSON.parse(await readFile(join(folder, 'Pondering.fbx.json'), 'utf8'))).toEqual(DESCRIPTOR);
      expect((await get('/api/animations/uploads')).json()).toEqual({ uploads: [] });
      expect((await promote({ upload_id: first.upload_id })).statusCode).toBe(404);

      const second = (
        await upload([
          { name: 'state', value: 'think' },
          { name: 'file', filename: 'Pondering.fbx', value: binaryFbx() },
        ])
      ).json();
      const clash = await promote({ upload_id: second.upload_id });
      expect(clash.statusCode).toBe(409);
      expect(clash.json().error.code).toBe('conflict');
      expect(await readFile(join(folder, 'Pondering.fbx'))).toEqual(await readFile(ASCII_FBX_FILE));
      expect((await promote({ upload_id: second.upload_id, overwrite: true })).statusCode).toBe(200);
      expect(await readFile(join(folder, 'Pondering.fbx'))).toEqual(binaryFbx());
      // The replaced clip's timings do not describe the new one.
      expect((await readdir(folder)).sort()).toEqual(['Pondering.fbx', 'Thinking.fbx', 'Thinking.fbx.json']);
    });

    it('promotes into a named skin; an unknown skin or upload is 404 and a malformed id 400', async () => {
      await start({ COMPANION_PROMOTE_ENABLED: '1' });
      const { upload_id: id } = (
        await upload([
          { name: 'state', value: 'idle' },
          { name: 'file', filename: 'Sway.vrma', value: await readFile(VRMA_FILE) },
        ])
      ).json();
      expect((await promote({ upload_id: id, skin: 'nope' })).statusCode).toBe(404);
      expect((await promote({ upload_id: id, skin: '../default' })).statusCode).toBe(404);
      expect((await promote({ upload_id: 'f'.repeat(32) })).statusCode).toBe(404);
      expect((await promote({ upload_id: '../x' })).statusCode).toBe(400);
      expect((await promote({ upload_id: id, skin: 'alt' })).json()).toMatchObject({ skin: 'alt', state: 'idle', file: 'Sway.vrma' });
      expect((await readdir(join(skins, 'alt', 'animations', 'idle'))).sort()).toEqual(['Alt Idle.fbx', 'Alt Idle.fbx.json', 'Sway.vrma']);
    });
  });

  describe("the promote_upload action (plugins/uploads, delivered like a model's action)", () => {
    const origin = (senderId: string) => ({ interfaceId: 'telegram_bot', interfacePath: 'telegram_bot/1', messageId: 'm1', senderId, metadata: {} });
    const promote = (payload: Record<string, unknown>, senderId = 'operator') =>
      subject.harness.services.delivery.deliver(origin(senderId), { type: 'promote_upload', payload });

    it('follows the same rules: refused while disabled, a clash unless overwrite, and only for an operator', async () => {
      await start({ TRAINER_IDS: 'telegram_bot:operator' }, { plugins: shippedRoots.plugins });
      const { upload_id: id } = (
        await upload([
          { name: 'state', value: 'think' },
          { name: 'file', filename: 'Thinking.fbx', value: binaryFbx() },
        ])
      ).json();
      expect(await promote({ upload_id: id })).toMatchObject({ delivered: false, reason: expect.stringMatching(/disabled/) });
      await subject.harness.services.config.set('COMPANION_PROMOTE_ENABLED', '1');
      expect(await promote({ upload_id: id }, 'stranger')).toMatchObject({ delivered: false, reason: expect.stringMatching(/operator/) });
      expect(await promote({ upload_id: id })).toMatchObject({ delivered: false, reason: expect.stringMatching(/exists/) });
      expect(await promote({ upload_id: id, overwrite: true })).toEqual({ delivered: true });
      expect(await readFile(join(skins, 'default', 'animations', 'think', 'Thinking.fbx'))).toEqual(binaryFbx());
      expect((await get('/api/animations/uploads')).json()).toEqual({ uploads: [] });
    });
  });

  describe('GET /api/body/assets/manifest', () => {
    it('lists an upload with its hash, drops it once removed, and rehashes a changed skin file', async () => {
      await start();
      const before = (await get('/api/body/assets/manifest')).json().assets as Array<{ url: string; hash: string; kind: string }>;
      const answer = (await upload([{ name: 'state', value: 'think' }, { name: 'descriptor', value: JSON.stringify(DESCRIPTOR) }, await fbx()])).json();
      const meta = (await get('/api/animations/uploads')).json().uploads[0];
      const after = (await get('/api/body/assets/manifest')).json().assets as Array<{ url: string; hash: string; kind: string; size: number }>;
      expect(after).toContainEqual({ url: answer.url, hash: `sha256:${meta.sha256}`, size: meta.size, kind: 'animation' });
      expect(after).toContainEqual(expect.objectContaining({ url: `${answer.url}.json`, kind: 'descriptor' }));
      expect(after).toHaveLength(before.length + 2);

      const persona = join(skins, 'default', 'persona.json');
      const old = after.find((asset) => asset.kind === 'persona');
      await writeFile(persona, JSON.stringify({ blendshape_map: {}, emotions: { calm: { Joy: 0.1 } }, emotion_speed: { default: 1, decay: 1 } }));
      const changed = (await get('/api/body/assets/manifest')).json().assets.find((asset: { kind: string }) => asset.kind === 'persona');
      expect(changed.url).toBe(old?.url);
      expect(changed.hash).not.toBe(old?.hash);

      await subject.app.inject({ method: 'DELETE', url: `/api/animations/uploads/${answer.upload_id}` });
      expect((await get('/api/body/assets/manifest')).json().assets).toHaveLength(before.length);
    });
  });
});
