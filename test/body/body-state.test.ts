import { createHash } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AUDIO_CLEAR_BUFFER_MS } from '../../src/body/audio-tracker.ts';
import { createTestBody, FIXTURE_SKINS } from '../helpers/body.ts';

const sha256 = (data: Buffer | string) => `sha256:${createHash('sha256').update(data).digest('hex')}`;

describe('audio state', () => {
  it('reports the offset for late joiners and clears itself after the duration plus a buffer', async () => {
    const { body, clock, transport } = await createTestBody();
    transport.clear();
    body.setAudio({ url: '/tts/a.wav', audio_duration_s: 2, lipsync_data: { mouths: [], duration: 2 } });
    expect(transport.messages('vrm_audio')).toEqual([{ type: 'vrm_audio', audio: expect.objectContaining({ url: '/tts/a.wav', offset_s: 0 }) }]);
    clock.advance(500);
    expect(body.getAudio()).toMatchObject({ offset_s: 0.5, audio_duration_s: 2, lipsync_data: { duration: 2 } });
    clock.advance(1500 + AUDIO_CLEAR_BUFFER_MS - 1);
    expect(body.getAudio()).not.toBeNull();
    clock.advance(1);
    expect(body.getAudio()).toBeNull();
    expect(transport.messages('vrm_audio').at(-1)).toEqual({ type: 'vrm_audio', audio: null });
    body.stop();
  });

  it('restarts the clear timer when new speech starts', async () => {
    const { body, clock } = await createTestBody();
    body.setAudio({ url: '/tts/a.wav', audio_duration_s: 1 });
    clock.advance(1000);
    body.setAudio({ url: '/tts/b.wav', audio_duration_s: 1 });
    clock.advance(1500);
    expect(body.getAudio()?.url).toBe('/tts/b.wav');
    clock.advance(500);
    expect(body.getAudio()).toBeNull();
    body.stop();
  });
});

describe('model, face and expressions', () => {
  it('loads the skin model with its sha256 and broadcasts set_vrm_model only on a real change', async () => {
    const { body, transport } = await createTestBody();
    const file = await readFile(join(FIXTURE_SKINS, 'default', 'anima.vrm'));
    expect(body.getVrmModel()).toEqual({ name: 'anima', url: '/skins/default/anima.vrm', hash: sha256(file) });
    expect(body.currentSkin()).toBe('default');
    transport.clear();
    body.setVrmModel('/uploads/custom.vrm', 'custom', 'sha256:abc');
    body.setVrmModel('/uploads/custom.vrm', 'custom', 'sha256:abc');
    expect(transport.messages()).toEqual([{ type: 'vrm_model', name: 'custom', url: '/uploads/custom.vrm', hash: 'sha256:abc' }]);
    expect(body.currentSkin()).toBeNull();
    body.stop();
  });

  it('broadcasts face values only when they change, clamped to 0..1', async () => {
    const { body, transport } = await createTestBody();
    transport.clear();
    body.setFaceValues({ Joy: 0.5, Angry: 2 });
    body.setFaceValues({ Joy: 0.5, Angry: 1 });
    expect(transport.messages()).toEqual([{ type: 'vrm_face', values: { Joy: 0.5, Angry: 1 } }]);
    expect(body.getEmotionState()).toMatchObject({ values: {}, blendshapes: { Joy: 0.5, Angry: 1 }, dominant: null, updated_at: expect.any(String) });
    body.stop();
  });

  it('sets and clears the expression override, skipping repeats', async () => {
    const { body, transport } = await createTestBody();
    transport.clear();
    body.clearExpression();
    body.setExpression('surprised', 0.8);
    body.setExpression('surprised', 0.8);
    body.clearExpression();
    body.clearExpression();
    expect(transport.messages()).toEqual([{ type: 'vrm_expression_set', name: 'surprised', intensity: 0.8 }, { type: 'vrm_expression_clear' }]);
    body.stop();
  });
});

describe('welcome messages and assets', () => {
  let scratch: string | undefined;
  afterEach(async () => {
    if (scratch) await rm(scratch, { recursive: true, force: true });
    scratch = undefined;
  });

  it('pushes the missing model first, then the animation before the other state', async () => {
    const { body } = await createTestBody();
    body.setAudio({ url: '/tts/a.wav', audio_duration_s: 5 });
    expect(body.welcomeMessages([]).map((message) => message.type)).toEqual(['vrm_model', 'vrm_animation', 'animation_state', 'vrm_face', 'vrm_audio']);
    const hash = body.getVrmModel()?.hash ?? '';
    expect(body.welcomeMessages([hash]).map((message) => message.type)).toEqual(['vrm_animation', 'animation_state', 'vrm_model', 'vrm_face', 'vrm_audio']);
    expect(body.welcomeMessages(['/skins/default/anima.vrm'])[0]?.type).toBe('vrm_animation');
    body.stop();
  });

  it('gives a client that joins while an expression override shows that override after the face values', async () => {
    const { body } = await createTestBody();
    body.setExpression('happy', 0.8);
    expect(body.welcomeMessages([]).slice(-2)).toEqual([
      { type: 'vrm_face', values: {} },
      { type: 'vrm_expression_set', name: 'happy', intensity: 0.8 },
    ]);
    body.clearExpression();
    expect(body.welcomeMessages([]).at(-1)?.type).toBe('vrm_face');
    body.stop();
  });

  it('lists the active and fallback skins with sha256 hashes and kinds', async () => {
    const { body } = await createTestBody({ activeSkin: 'alt' });
    const assets = await body.getAssetManifest();
    const vrm = await readFile(join(FIXTURE_SKINS, 'alt', 'alt.vrm'));
    expect(assets).toContainEqual({ url: '/skins/alt/alt.vrm', hash: sha256(vrm), size: vrm.length, kind: 'vrm' });
    expect(assets).toContainEqual(expect.objectContaining({ url: '/skins/default/persona.json', kind: 'persona' }));
    expect(assets).toContainEqual(expect.objectContaining({ url: '/skins/default/animations/think/Thinking.fbx.json', kind: 'descriptor' }));
    expect(assets).toContainEqual(expect.objectContaining({ url: '/skins/alt/animations/idle/Alt%20Idle.fbx', kind: 'animation' }));
    const missing = await body.getMissingAssets([sha256(vrm), '/skins/default/persona.json']);
    expect(missing.map((asset) => asset.url)).not.toContain('/skins/alt/alt.vrm');
    expect(missing.map((asset) => asset.url)).not.toContain('/skins/default/persona.json');
    expect(missing).toHaveLength(assets.length - 2);
    body.stop();
  });

  it('recomputes a hash when the file changes', async () => {
    scratch = await mkdtemp(join(tmpdir(), 'anima-assets-'));
    await cp(FIXTURE_SKINS, scratch, { recursive: true });
    const { body } = await createTestBody({ skinsDir: scratch });
    const model = () => body.getAssetManifest().then((assets) => assets.find((asset) => asset.kind === 'vrm'));
    expect((await model())?.hash).toBe(sha256(await readFile(join(scratch, 'default', 'anima.vrm'))));
    await writeFile(join(scratch, 'default', 'anima.vrm'), 'a different model');
    const later = new Date(Date.now() + 5000);
    await utimes(join(scratch, 'default', 'anima.vrm'), later, later);
    expect(await model()).toMatchObject({ hash: sha256('a different model'), size: 17 });
    body.stop();
  });
});
