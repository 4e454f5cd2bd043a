import { access, copyFile, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { detectAnimation, detectVrm } from '../../src/body/file-kinds.ts';
import { startAvatarFiles } from '../../src/body/avatar-files.ts';
import { STAGED_MAX_AGE_MS, UploadStore } from '../../src/body/upload-store.ts';
import { ConfigStore } from '../../src/config/store.ts';
import { createLogger } from '../../src/logging.ts';
import { createTestBody, type TestBody } from '../helpers/body.ts';
import { ASCII_FBX_FILE, binaryFbx, copyFixtureSkins, plainGlbFile, vrm0File, VRM_1_FILE, VRMA_FILE } from '../helpers/upload-files.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const { logger } = createLogger({ level: 'silent', pretty: false });
const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe('upload retention', () => {
  let skins: string;
  let test: TestBody;
  const stores: UploadStore[] = [];

  const storeOf = (ttlDays = 7) => {
    const store = new UploadStore({ body: test.body, logger, clock: test.clock, ttlDays: () => ttlDays, promoteEnabled: () => false });
    stores.push(store);
    return store;
  };
  const uploadTo = async (store: UploadStore, state = 'think') => {
    const staged = await store.stagingPath();
    await copyFile(ASCII_FBX_FILE, staged);
    return (await store.create({ staged, originalName: 'Pondering.fbx', state, descriptor: null })).meta;
  };

  afterEach(async () => {
    for (const store of stores.splice(0)) store.stop();
    test.body.stop();
    await rm(skins, { recursive: true, force: true });
  });

  it('sweeps every interval and removes uploads older than the retention, with their search paths', async () => {
    skins = await copyFixtureSkins();
    test = await createTestBody({ skinsDir: skins });
    const store = storeOf(7);
    // A long interval: this test sweeps by hand; the next one lets the timer do it.
    await store.start(30 * DAY_MS);
    const old = await uploadTo(store);
    test.clock.advance(DAY_MS);
    const fresh = await uploadTo(store, 'write');
    expect(test.body.library.temporaryPaths()).toHaveLength(2);

    test.clock.advance(6 * DAY_MS - HOUR_MS);
    expect(await store.sweep()).toEqual([]);
    test.clock.advance(HOUR_MS);
    expect(await store.sweep()).toEqual([old.upload_id]);
    expect((await store.list()).map((meta) => meta.upload_id)).toEqual([fresh.upload_id]);
    expect(test.body.library.temporaryPaths()).toEqual([join(skins, 'temp', fresh.upload_id)]);
    expect(test.body.transitionTo('think', { contextId: 'm' })).toMatchObject({ accepted: true });
    expect(test.body.getAnimation()).toMatchObject({ file: 'Thinking.fbx' });

    test.clock.advance(DAY_MS);
    await store.sweep();
    expect(await store.list()).toEqual([]);
    expect(test.body.library.temporaryPaths()).toEqual([]);
  });

  it('removes the staged files of uploads that never finished, once they are an hour old', async () => {
    skins = await copyFixtureSkins();
    test = await createTestBody({ skinsDir: skins });
    const store = storeOf();
    const abandoned = await store.stagingPath();
    const inProgress = await store.stagingPath();
    await writeFile(abandoned, 'half an upload');
    await writeFile(inProgress, 'arriving');
    const seconds = (ms: number) => ms / 1000;
    await utimes(abandoned, seconds(test.clock.now() - STAGED_MAX_AGE_MS), seconds(test.clock.now() - STAGED_MAX_AGE_MS));
    await utimes(inProgress, seconds(test.clock.now() - 60_000), seconds(test.clock.now() - 60_000));
    await store.sweep();
    expect(await exists(abandoned)).toBe(false);
    expect(await exists(inProgress)).toBe(true);
  });

  it('sweeps at the new interval once COMPANION_UPLOAD_CLEANUP_INTERVAL_S changes', async () => {
    skins = await copyFixtureSkins();
    test = await createTestBody({ skinsDir: skins });
    const config = ConfigStore.fromSources({ environment: { COMPANION_UPLOAD_CLEANUP_INTERVAL_S: String(20 * 86_400), COMPANION_UPLOAD_TTL_DAYS: '1' } });
    const files = await startAvatarFiles({ body: test.body, config, logger, backups: join(skins, 'backups'), clock: test.clock });
    try {
      await config.set('COMPANION_UPLOAD_CLEANUP_INTERVAL_S', '3600');
      await uploadTo(files.uploads);
      test.clock.advance(DAY_MS + HOUR_MS);
      // The timer's sweep runs first; this one, queued after it, finds nothing left.
      expect(await files.uploads.sweep()).toEqual([]);
      expect(await files.uploads.list()).toEqual([]);
    } finally {
      files.stop();
    }
  });

  it('lets the interval timer run the sweep on the injected clock', async () => {
    skins = await copyFixtureSkins();
    test = await createTestBody({ skinsDir: skins });
    const store = storeOf(1);
    await store.start(HOUR_MS);
    await uploadTo(store);
    test.clock.advance(DAY_MS);
    // Sweeps run one after another: this one finds nothing left, because the timer's sweeps removed it.
    expect(await store.sweep()).toEqual([]);
    expect(await store.list()).toEqual([]);
    expect(test.body.library.temporaryPaths()).toEqual([]);
  });

  it('registers the uploads found on disk at start, so they survive a restart, and skips a broken meta file', async () => {
    skins = await copyFixtureSkins();
    test = await createTestBody({ skinsDir: skins });
    const kept = await uploadTo(storeOf());
    await writeFile(join(skins, 'temp', `${'f'.repeat(32)}.txt`), 'not an upload');
    await uploadTo(storeOf()).then((meta) => writeFile(join(skins, 'temp', meta.upload_id, 'meta.json'), '{"broken": '));
    test.body.stop();
    test = await createTestBody({ skinsDir: skins });
    expect(test.body.library.temporaryPaths()).toEqual([]);
    const store = storeOf();
    await store.start(HOUR_MS);
    expect((await store.list()).map((meta) => meta.upload_id)).toEqual([kept.upload_id]);
    expect(test.body.library.temporaryPaths()).toEqual([join(skins, 'temp', kept.upload_id)]);
  });
});

describe('file kinds by content', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('tells FBX (ASCII and binary) and VRMA from everything else, and VRM 1.0 from 0.x', async () => {
    dir = await copyFixtureSkins();
    const write = async (name: string, data: Buffer | string) => {
      const path = join(dir as string, name);
      await writeFile(path, data);
      return path;
    };
    expect(await detectAnimation(ASCII_FBX_FILE)).toBe('fbx');
    expect(await detectAnimation(await write('bin', binaryFbx()))).toBe('fbx');
    expect(await detectAnimation(await write('bom', `\ufeff; FBX 7.4.0 project file\n`))).toBe('fbx');
    expect(await detectAnimation(VRMA_FILE)).toBe('vrma');
    expect(await detectAnimation(VRM_1_FILE)).toBeUndefined();
    expect(await detectAnimation(await write('text', 'hello'))).toBeUndefined();
    expect(await detectAnimation(await write('empty', ''))).toBeUndefined();

    expect(await detectVrm(VRM_1_FILE)).toBe('1.0');
    expect(await detectVrm(await write('zero', await vrm0File()))).toBe('0.x');
    expect(await detectVrm(await write('plain', await plainGlbFile()))).toBeUndefined();
    expect(await detectVrm(VRMA_FILE)).toBeUndefined();
    const model = await vrm0File();
    expect(await detectVrm(await write('truncated', model.subarray(0, 40)))).toBeUndefined();
    const version1 = Buffer.from(model);
    version1.writeUInt32LE(1, 4);
    expect(await detectVrm(await write('v1', version1))).toBeUndefined();
  });
});
