import { describe, expect, it } from 'vitest';
import type { BodyServer } from '../../src/body/body-server.ts';
import { createTestBody } from '../helpers/body.ts';

/** The snapshot's text must be exactly what serialising the state itself gives. */
const expectFaithful = (body: BodyServer) => expect(body.getFullStateJson().json).toBe(JSON.stringify(body.getFullState()));

describe('the full-state snapshot (getFullStateJson)', () => {
  it('is the state serialised, byte for byte, and the same object until something changes', async () => {
    const { body } = await createTestBody();
    body.transitionTo('think', { contextId: 'a' });
    expectFaithful(body);
    const snapshot = body.getFullStateJson();
    expect(snapshot.etag).toMatch(/^"[\w-]{27}"$/);
    body.setExpression('happy', 1);
    expect(body.transitionTo('write', { contextId: 'lower' }).accepted).toBe(false);
    body.setFaceValues({});
    expect(body.getFullStateJson()).toBe(snapshot);
    body.stop();
  });

  it('is made again after each kind of change, and only once per change', async () => {
    const { body } = await createTestBody();
    const changes: Array<[string, () => void]> = [
      ['face values', () => body.setFaceValues({ Joy: 0.5 })],
      ['a new state', () => body.transitionTo('think', { contextId: 'a' })],
      ['a second context in the same state', () => body.transitionTo('think', { contextId: 'b' })],
      ['one of two contexts stopped, the state kept', () => body.stopAnimation('a')],
      ['the model', () => body.setVrmModel('/vrm/custom.vrm', 'custom', 'sha256:abc')],
      ['speech starting', () => body.setAudio({ url: '/tts/a.wav', audio_duration_s: 3 })],
      ['speech ending', () => body.clearAudio()],
    ];
    for (const [change, make] of changes) {
      const before = body.getFullStateJson();
      make();
      const after = body.getFullStateJson();
      expect(after.json, change).not.toBe(before.json);
      expect(after.etag, change).not.toBe(before.etag);
      expect(body.getFullStateJson(), change).toStrictEqual(after);
      expectFaithful(body);
    }
    const settled = body.getFullStateJson();
    expect(body.getFullStateJson()).toBe(settled);
    expect(JSON.parse(settled.json).animation.contexts).toEqual(['b']);
    body.stop();
  });

  it('writes the speech offset in at each read, so a late poller resumes at the right place', async () => {
    const { body, clock } = await createTestBody();
    body.setAudio({ url: '/tts/a.wav', audio_duration_s: 2, lipsync_data: { mouths: [{ time: 0, value: 'A' }], duration: 2 } });
    const atStart = body.getFullStateJson();
    expectFaithful(body);
    clock.advance(1250);
    const later = body.getFullStateJson();
    expect(JSON.parse(later.json).audio).toEqual({
      url: '/tts/a.wav',
      audio_duration_s: 2,
      lipsync_data: { mouths: [{ time: 0, value: 'A' }], duration: 2 },
      offset_s: 1.25,
    });
    expect(later.etag).not.toBe(atStart.etag);
    expectFaithful(body);
    clock.advance(750);
    const ended = body.getFullStateJson();
    clock.advance(500);
    expect(body.getFullStateJson()).toEqual(ended);
    body.stop();
  });
});
