import { describe, expect, it, vi } from 'vitest';
import { FIXTURE_SKINS } from '../helpers/body.ts';
import { useTestApp } from '../helpers/services.ts';

describe('animation endpoints', () => {
  const subject = useTestApp({ environment: { SKINS_DIR: FIXTURE_SKINS } });

  const post = (payload: unknown) => subject.app.inject({ method: 'POST', url: '/api/animation_state', payload: payload as object });

  describe('GET /api/animation_state', () => {
    it('returns the state, file, url, loop, descriptor, started_at, priority and contexts', async () => {
      const response = await subject.app.inject({ method: 'GET', url: '/api/animation_state' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        state: 'idle',
        file: 'Happy Idle.fbx',
        url: '/skins/default/animations/idle/Happy%20Idle.fbx',
        loop: true,
        phase: 'loop',
        descriptor: { loop: { start_frame: 0, end_frame: 59 } },
        started_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        priority: 0,
        contexts: [],
      });
    });
  });

  describe('POST /api/animation_state', () => {
    it('accepts a state change and reports the active state and context', async () => {
      const response = await post({ state: 'think', context_id: 'm1', source: 'test' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ accepted: true, state: 'think', context_id: 'm1' });
      expect((await subject.app.inject({ method: 'GET', url: '/api/animation_state' })).json()).toMatchObject({ state: 'think', contexts: ['m1'] });
    });

    it('answers accepted: false for a lower priority request', async () => {
      await post({ state: 'think', context_id: 'm1' });
      const response = await post({ state: 'write' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ accepted: false, state: 'think', context_id: null });
    });

    it('rejects an unknown state with 400 listing the known states', async () => {
      const response = await post({ state: 'dance' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: { code: 'invalid_request', message: expect.stringContaining('dance'), details: { known_states: ['idle', 'talk', 'think', 'write'] } },
      });
    });

    it.each([
      ['a missing state', {}],
      ['an empty state', { state: '' }],
      ['a non-boolean loop', { state: 'think', loop: 'yes' }],
    ])('rejects %s with 400', async (_name, payload) => {
      const response = await post(payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('invalid_request');
    });

    it('rejects malformed JSON with 400', async () => {
      const response = await subject.app.inject({
        method: 'POST',
        url: '/api/animation_state',
        headers: { 'content-type': 'application/json' },
        payload: '{"state":',
      });
      expect(response.statusCode).toBe(400);
    });
  });

  describe('GET /api/animations/{skin}/{animation_type}', () => {
    it('lists the files of one state folder of one skin', async () => {
      const response = await subject.app.inject({ method: 'GET', url: '/api/animations/default/write' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        skin: 'default',
        animation_type: 'write',
        animations: [
          { file: 'Broken.fbx', url: '/skins/default/animations/write/Broken.fbx', descriptor: null, kind: 'other' },
          { file: 'Texting.fbx', url: '/skins/default/animations/write/Texting.fbx', descriptor: { loop: { start_frame: 0, end_frame: 29 } }, kind: 'loop' },
        ],
      });
    });

    it('returns an empty list for a state the skin lacks, and 404 for an unknown skin', async () => {
      expect((await subject.app.inject({ method: 'GET', url: '/api/animations/alt/think' })).json().animations).toEqual([]);
      expect((await subject.app.inject({ method: 'GET', url: '/api/animations/nope/idle' })).statusCode).toBe(404);
    });

    it.each(['/api/animations/..%2F..%2Fetc/idle', '/api/animations/default/..', '/api/animations/default/%2E%2E', '/api/animations/default/a%00b'])(
      'refuses %s',
      async (url) => {
        expect([400, 404]).toContain((await subject.app.inject({ method: 'GET', url })).statusCode);
      },
    );
  });

  describe('GET /api/emotion_state', () => {
    it("returns each emotion's level, the dominant emotion, the face's blend shapes and the update time", async () => {
      expect((await subject.app.inject({ method: 'GET', url: '/api/emotion_state' })).json()).toEqual({
        values: {},
        dominant: null,
        blendshapes: {},
        updated_at: null,
      });
      subject.harness.services.body.setFaceValues({ Joy: 0.4 });
      subject.harness.services.body.setEmotionSource(() => ({ dominant: 'happy', values: { happy: 0.5 } }));
      expect((await subject.app.inject({ method: 'GET', url: '/api/emotion_state' })).json()).toEqual({
        values: { happy: 0.5 },
        dominant: 'happy',
        blendshapes: { Joy: 0.4 },
        updated_at: expect.any(String),
      });
    });
  });

  describe('skins', () => {
    it('GET /api/skins and /api/body/skins list the skins with their model and persona', async () => {
      for (const url of ['/api/skins', '/api/body/skins']) {
        const response = await subject.app.inject({ method: 'GET', url });
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual({
          current_skin: 'default',
          skins: [
            { name: 'alt', active: false, model_url: '/skins/alt/alt.vrm', persona_url: null },
            { name: 'default', active: true, model_url: '/skins/default/anima.vrm', persona_url: '/skins/default/persona.json' },
          ],
        });
      }
    });

    it('follows ACTIVE_SKIN when it is changed at run time', async () => {
      const saved = await subject.app.inject({ method: 'POST', url: '/api/config', payload: { key: 'ACTIVE_SKIN', value: 'alt' } });
      expect(saved.statusCode).toBe(200);
      // The switch ends by playing the active state again, from the new skin.
      await vi.waitFor(async () =>
        expect((await subject.app.inject({ method: 'GET', url: '/api/animation_state' })).json()).toMatchObject({ state: 'idle', file: 'Alt Idle.fbx' }),
      );
      expect((await subject.app.inject({ method: 'GET', url: '/api/skins/current_skin' })).json()).toEqual({ skin: 'alt' });
      expect((await subject.app.inject({ method: 'GET', url: '/api/body/state/model' })).json().vrm_model.url).toBe('/skins/alt/alt.vrm');
    });

    it('GET /api/skins/current_skin names the active skin, or null while a custom model is shown', async () => {
      expect((await subject.app.inject({ method: 'GET', url: '/api/skins/current_skin' })).json()).toEqual({ skin: 'default' });
      subject.harness.services.body.setVrmModel('/uploads/mine.vrm', 'mine');
      expect((await subject.app.inject({ method: 'GET', url: '/api/skins/current_skin' })).json()).toEqual({ skin: null });
    });

    it('GET /api/skins/{skin}/animations/{type}/{file}.json returns the descriptor', async () => {
      const response = await subject.app.inject({ method: 'GET', url: '/api/skins/default/animations/think/Thinking.fbx.json' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        intro: { start_frame: 0, end_frame: 14 },
        loop: { start_frame: 15, end_frame: 44 },
        outro: { start_frame: 45, end_frame: 59 },
        fps: 30,
      });
      expect((await subject.app.inject({ method: 'GET', url: '/api/skins/default/animations/idle/Happy%20Idle.fbx.json' })).statusCode).toBe(200);
      expect((await subject.app.inject({ method: 'GET', url: '/api/skins/default/animations/think/Thinking.json' })).statusCode).toBe(200);
    });

    it.each([
      ['a file without descriptor', '/api/skins/default/animations/idle/Idle.fbx.json', 404],
      ['a broken descriptor', '/api/skins/default/animations/write/Broken.fbx.json', 404],
      ['a name that is not .json', '/api/skins/default/animations/think/Thinking.fbx', 404],
      ['a traversal', '/api/skins/default/animations/..%2F..%2F..%2Fpackage/x.json', 400],
      ['a dot-dot skin', '/api/skins/../animations/think/Thinking.fbx.json', 404],
    ])('answers %s with %i', async (_name, url, status) => {
      expect((await subject.app.inject({ method: 'GET', url })).statusCode).toBe(status);
    });
  });
});
