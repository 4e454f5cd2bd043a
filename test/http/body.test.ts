import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURE_SKINS } from '../helpers/body.ts';
import { useTestApp } from '../helpers/services.ts';

describe('public body API (/api/body/)', () => {
  const subject = useTestApp({ environment: { SKINS_DIR: FIXTURE_SKINS } });

  const get = (url: string) => subject.app.inject({ method: 'GET', url });
  const action = (payload: object) => subject.app.inject({ method: 'POST', url: '/api/body/action', payload });

  describe('GET /api/body/state and its parts', () => {
    it('returns the model, animation, face values and audio', async () => {
      subject.harness.services.body.setFaceValues({ Joy: 0.25 });
      subject.harness.services.body.setAudio({ url: '/tts/x.wav', audio_duration_s: 30 });
      const state = (await get('/api/body/state')).json();
      expect(state).toEqual({
        vrm_model: { name: 'anima', url: '/skins/default/anima.vrm', hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) },
        animation: expect.objectContaining({ state: 'idle', descriptor: expect.any(Object), started_at: expect.any(String) }),
        face_values: { Joy: 0.25 },
        audio: { url: '/tts/x.wav', audio_duration_s: 30, offset_s: expect.any(Number), lipsync_data: null },
      });
      expect((await get('/api/body/state/animation')).json()).toEqual(state.animation);
      expect((await get('/api/body/state/model')).json()).toEqual({ vrm_model: state.vrm_model });
      expect((await get('/api/body/state/face')).json()).toEqual({ face_values: { Joy: 0.25 } });
      expect((await get('/api/body/state/audio')).json()).toMatchObject({ audio: { url: '/tts/x.wav' } });
    });

    it('reports audio as null when no speech plays', async () => {
      expect((await get('/api/body/state/audio')).json()).toEqual({ audio: null });
    });
  });

  describe('POST /api/body/action', () => {
    it('requests a state, then stops its context', async () => {
      const started = await action({ state: 'write', context_id: 'c1' });
      expect(started.json()).toEqual({ accepted: true, state: 'write', context_id: 'c1' });
      const stopped = await action({ stop: 'c1' });
      expect(stopped.json()).toEqual({ accepted: true, state: 'idle', context_id: 'c1' });
      expect((await action({ stop: 'c1' })).json()).toEqual({ accepted: false, state: 'idle', context_id: 'c1' });
    });

    it('rejects an unknown state with 400 listing the known states, and a bad body with 400', async () => {
      const unknown = await action({ state: 'fly' });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().error.details).toEqual({ known_states: ['idle', 'talk', 'think', 'write'] });
      expect((await action({ stop: '' })).statusCode).toBe(400);
      expect((await action({ nothing: true })).statusCode).toBe(400);
    });
  });

  describe('animations', () => {
    it('GET /api/body/animations/{state} lists the variants by bucket', async () => {
      const response = await get('/api/body/animations/idle');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        state: 'idle',
        sequential: true,
        variants: {
          loop: [
            { file: 'Happy Idle.fbx', url: '/skins/default/animations/idle/Happy%20Idle.fbx', descriptor: { loop: { start_frame: 0, end_frame: 59 } } },
            { file: 'Idle2.fbx', url: '/skins/default/animations/idle/Idle2.fbx', descriptor: { loop: { start_frame: 0, end_frame: 89 }, fps: 30 } },
          ],
          post: [],
          other: [{ file: 'Idle.fbx', url: '/skins/default/animations/idle/Idle.fbx', descriptor: null }],
        },
      });
      const unknown = await get('/api/body/animations/dance');
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().error.details.known_states).toContain('think');
    });

    it('GET /api/body/animations/{state}/{file}/descriptor returns the descriptor and its analysis', async () => {
      const response = await get('/api/body/animations/think/Thinking.fbx/descriptor');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        file: 'Thinking.fbx',
        state: 'think',
        descriptor: { fps: 30 },
        analysis: { has_intro: true, has_loop: true, has_outro: true, durations: { total: 2 } },
      });
      expect((await get('/api/body/animations/idle/Idle.fbx/descriptor')).json()).toMatchObject({ descriptor: null, analysis: null });
      expect((await get('/api/body/animations/think/Nope.fbx/descriptor')).statusCode).toBe(404);
      expect((await get('/api/body/animations/think/..%2F..%2Fanima.vrm/descriptor')).statusCode).toBe(400);
    });

    it('GET /api/body/animations/manifest lists reusable descriptors, and resolve finds one by id', async () => {
      const manifest = (await get('/api/body/animations/manifest')).json();
      expect(manifest.descriptors).toContainEqual({
        descriptor_id: 'default/think/Thinking.fbx',
        state: 'think',
        file: 'Thinking.fbx',
        animation_url: '/skins/default/animations/think/Thinking.fbx',
        descriptor: expect.objectContaining({ fps: 30 }),
      });
      expect(manifest.descriptors.map((entry: { descriptor_id: string }) => entry.descriptor_id)).not.toContain('default/write/Broken.fbx');
      const resolved = await get(`/api/body/animations/resolve?descriptor_id=${encodeURIComponent('default/idle/Happy Idle.fbx')}`);
      expect(resolved.json()).toEqual({
        animation_url: '/skins/default/animations/idle/Happy%20Idle.fbx',
        descriptor_data: { loop: { start_frame: 0, end_frame: 59 } },
      });
      expect((await get('/api/body/animations/resolve?descriptor_id=default/think/Nope.fbx')).statusCode).toBe(404);
      expect((await get('/api/body/animations/resolve?descriptor_id=../../etc/passwd')).statusCode).toBe(404);
      expect((await get('/api/body/animations/resolve')).statusCode).toBe(400);
    });
  });

  describe('assets', () => {
    it('GET /api/body/assets/manifest lists sha256 hashes of the active and fallback skins', async () => {
      const { assets } = (await get('/api/body/assets/manifest')).json();
      const model = await readFile(join(FIXTURE_SKINS, 'default', 'anima.vrm'));
      expect(assets).toContainEqual({
        url: '/skins/default/anima.vrm',
        hash: `sha256:${createHash('sha256').update(model).digest('hex')}`,
        size: model.length,
        kind: 'vrm',
      });
      expect(new Set(assets.map((asset: { kind: string }) => asset.kind))).toEqual(new Set(['vrm', 'persona', 'animation', 'descriptor']));
      expect(assets.every((asset: { url: string }) => asset.url.startsWith('/skins/default/'))).toBe(true);
    });

    it('GET and POST /api/body/assets/missing return what the client does not hold', async () => {
      const { assets } = (await get('/api/body/assets/manifest')).json();
      const [first, second] = assets as Array<{ url: string; hash: string }>;
      const viaPost = (
        await subject.app.inject({ method: 'POST', url: '/api/body/assets/missing', payload: { has_assets: [first?.hash, second?.url] } })
      ).json();
      expect(viaPost.missing).toHaveLength(assets.length - 2);
      const viaHas = (await subject.app.inject({ method: 'POST', url: '/api/body/assets/missing', payload: { has: [first?.hash] } })).json();
      expect(viaHas.missing).toHaveLength(assets.length - 1);
      const viaGet = (await get(`/api/body/assets/missing?has_assets=${encodeURIComponent(`${first?.hash},${second?.hash}`)}`)).json();
      expect(viaGet.missing).toHaveLength(assets.length - 2);
      expect((await subject.app.inject({ method: 'POST', url: '/api/body/assets/missing', payload: { has_assets: 'x' } })).statusCode).toBe(400);
    });
  });
});

describe('public body API trust', () => {
  const subject = useTestApp({ environment: { SKINS_DIR: FIXTURE_SKINS, APP_TRUST_LOOPBACK: 'false', APP_API_KEY: 'k' } });

  it('requires trust for /api/body/* from a client that is not trusted, but not for skin files', async () => {
    const get = (url: string, headers: Record<string, string> = {}) => subject.app.inject({ method: 'GET', url, headers });
    expect((await get('/api/body/state')).statusCode).toBe(401);
    expect((await get('/api/body/state', { 'x-api-key': 'k' })).statusCode).toBe(200);
    expect((await get('/skins/default/persona.json')).statusCode).toBe(200);
  });
});
