import { cp, mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestBody, FIXTURE_SKINS } from '../helpers/body.ts';

const names = (files: Array<{ name: string }>) => files.map((file) => file.name);

describe('skins and discovery', () => {
  let scratch: string | undefined;
  afterEach(async () => {
    if (scratch) await rm(scratch, { recursive: true, force: true });
    scratch = undefined;
  });

  it("classifies a state's files into loop, post and other", async () => {
    const { body } = await createTestBody();
    const idle = body.getAnimationVariants('idle');
    expect({ loop: names(idle.loop), post: names(idle.post), other: names(idle.other) }).toEqual({
      loop: ['Happy Idle.fbx', 'Idle2.fbx'],
      post: [],
      other: ['Idle.fbx'],
    });
    expect(names(body.getAnimationVariants('talk').post)).toEqual(['talking.fbx']);
    body.stop();
  });

  it('treats a broken descriptor as absent (defaults apply) without failing', async () => {
    const { body } = await createTestBody();
    const write = body.getAnimationVariants('write');
    expect(names(write.other)).toEqual(['Broken.fbx']);
    expect(write.other[0]?.descriptor).toBeNull();
    expect(names(write.loop)).toEqual(['Texting.fbx']);
    body.stop();
  });

  it('uses the active skin first and falls back to the default skin for states it lacks', async () => {
    const { body } = await createTestBody({ activeSkin: 'alt' });
    expect(body.library.files('idle').map((file) => file.url)).toEqual(['/skins/alt/animations/idle/Alt%20Idle.fbx']);
    expect(body.library.files('think').map((file) => file.url)).toEqual(['/skins/default/animations/think/Thinking.fbx']);
    expect(body.getVrmModel()).toMatchObject({ name: 'alt', url: '/skins/alt/alt.vrm' });
    body.stop();
  });

  it('falls back to the default skin for everything when the active skin does not exist', async () => {
    const { body } = await createTestBody({ activeSkin: 'missing' });
    expect(body.getAnimation()).toMatchObject({ state: 'idle', url: '/skins/default/animations/idle/Happy%20Idle.fbx' });
    expect(body.getVrmModel()?.url).toBe('/skins/default/anima.vrm');
    body.stop();
  });

  it('matches file names case-sensitively', async () => {
    const { body } = await createTestBody();
    expect(body.library.find('talk', 'talking.fbx')).toBeDefined();
    expect(body.library.find('talk', 'Talking.fbx')).toBeUndefined();
    body.stop();
  });

  it('searches temporary paths before the skins, and forgets them when removed', async () => {
    scratch = await mkdtemp(join(tmpdir(), 'anima-upload-'));
    await mkdir(join(scratch, 'animations', 'think'), { recursive: true });
    await writeFile(join(scratch, 'animations', 'think', 'Uploaded.fbx'), 'fbx');
    const { body } = await createTestBody();
    await body.addTemporarySearchPath(scratch);
    expect(body.library.files('think').map((file) => file.url)).toEqual(['/animations/think/Uploaded.fbx']);
    expect(body.library.files('idle')).toHaveLength(3);
    await body.removeTemporarySearchPath(scratch);
    expect(names(body.library.files('think'))).toEqual(['Thinking.fbx']);
    body.stop();
  });

  it('replaces the skin roots with set_animation_search_paths', async () => {
    const { body } = await createTestBody();
    await body.setAnimationSearchPaths([join(FIXTURE_SKINS, 'alt')]);
    expect(names(body.library.files('idle'))).toEqual(['Alt Idle.fbx']);
    expect(body.library.files('think')).toEqual([]);
    await body.setAnimationSearchPaths([]);
    expect(names(body.library.files('think'))).toEqual(['Thinking.fbx']);
    body.stop();
  });

  it('switches skin: new files, new model, and the active state plays again', async () => {
    scratch = await mkdtemp(join(tmpdir(), 'anima-skins-'));
    await cp(FIXTURE_SKINS, scratch, { recursive: true });
    const { body, transport } = await createTestBody({ skinsDir: scratch });
    transport.clear();
    await body.setActiveSkin('alt');
    expect(transport.messages().map((message) => message.type)).toEqual(['vrm_model', 'vrm_animation']);
    expect(body.getAnimation().file).toBe('Alt Idle.fbx');
    expect(body.currentSkin()).toBe('alt');
    body.stop();
  });
});
