import { afterEach, describe, expect, it } from 'vitest';
import { bodyStateAnswer } from '../../src/http/body-state-answer.ts';
import { FIXTURE_SKINS } from '../helpers/body.ts';
import { rawRequest } from '../helpers/raw-http.ts';
import { useTestApp } from '../helpers/services.ts';
import { openSocket, type OpenedSocket } from '../helpers/sockets.ts';

describe('GET /api/body/state: the state a companion polls', () => {
  const subject = useTestApp({ listen: true, environment: { SKINS_DIR: FIXTURE_SKINS } });
  const body = () => subject.harness.services.body;
  const poll = (headers: Record<string, string> = {}) => rawRequest(subject.ports.web, { path: '/api/body/state', headers });
  let sockets: OpenedSocket[] = [];

  afterEach(() => {
    for (const { socket } of sockets) socket.terminate();
    sockets = [];
  });

  it('answers If-None-Match with the current tag by 304 and no body, and with a new tag and 200 after a change', async () => {
    const first = await poll();
    expect(first.status).toBe(200);
    const etag = first.headers.etag ?? '';
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');

    const unchanged = await poll({ 'if-none-match': etag });
    expect(unchanged.status).toBe(304);
    expect(unchanged.bytes.length).toBe(0);
    expect(unchanged.headers.etag).toBe(etag);
    expect(unchanged.headers['x-content-type-options']).toBe('nosniff');
    expect((await poll({ 'if-none-match': `"elsewhere", ${etag}` })).status).toBe(304);

    body().setFaceValues({ Joy: 0.5 });
    const changed = await poll({ 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(JSON.parse(changed.body).face_values).toEqual({ Joy: 0.5 });
    expect((await poll({ 'if-none-match': changed.headers.etag ?? '' })).status).toBe(304);
  });

  it('answers a weak tag, another tag or a wildcard with the whole state', async () => {
    const { etag = '' } = (await poll()).headers;
    expect(etag).not.toBe('');
    for (const held of [`W/${etag}`, '"elsewhere"', '*', etag.slice(0, -2)]) {
      const answer = await poll({ 'if-none-match': held });
      expect(answer.status, held).toBe(200);
      expect(answer.headers.etag, held).toBe(etag);
      expect(JSON.parse(answer.body), held).toHaveProperty('animation.state', 'idle');
    }
  });

  it('serialises the state once per change, however many clients read it', async () => {
    const held = body().getFullStateJson();
    for (let poller = 0; poller < 3; poller += 1) expect((await poll()).body).toBe(held.json);
    expect(body().getFullStateJson()).toBe(held);

    const accepted = await subject.app.inject({ method: 'POST', url: '/api/body/action', payload: { state: 'think', context_id: 'c' } });
    expect(accepted.json()).toMatchObject({ accepted: true });
    const next = body().getFullStateJson();
    expect(next).not.toBe(held);
    for (let poller = 0; poller < 3; poller += 1) expect((await poll()).body).toBe(next.json);
    expect(body().getFullStateJson()).toBe(next);
    expect(JSON.parse(next.json).animation).toMatchObject({ state: 'think', contexts: ['c'] });
  });

  it('builds each answer once per change: a poll between changes gets the same answer, headers and all', () => {
    const fresh = bodyStateAnswer(body(), undefined);
    const { etag } = fresh.headers;
    expect(bodyStateAnswer(body(), undefined)).toBe(fresh);
    const notModified = bodyStateAnswer(body(), etag);
    expect(notModified).toMatchObject({ status: 304, headers: { etag } });
    expect(bodyStateAnswer(body(), `"elsewhere", ${etag}`)).toBe(notModified);

    body().setFaceValues({ Joy: 0.5 });
    const changed = bodyStateAnswer(body(), etag);
    expect(changed).not.toBe(fresh);
    expect(changed).toMatchObject({ status: 200, json: body().getFullStateJson().json });
    expect(changed.headers.etag).not.toBe(etag);
    expect(bodyStateAnswer(body(), undefined)).toBe(changed);
  });

  it('serves the very model and face values the body sockets send, byte for byte', async () => {
    body().setFaceValues({ Joy: 0.25, Surprised: 1 });
    const client = await openSocket(`ws://127.0.0.1:${subject.ports.web}/api/body/ws`);
    sockets.push(client);
    client.socket.send(JSON.stringify({ type: 'hello', has_assets: [] }));
    await client.next((message) => (message as { type?: string }).type === 'vrm_face');
    body().setFaceValues({ Joy: 0.75 });
    await client.next((message) => (message as { values?: { Joy?: number } }).values?.Joy === 0.75);

    const state = (await poll()).body;
    expect(state).toBe(body().getFullStateJson().json);
    const frames = (type: string) => client.texts.filter((text) => text.startsWith(`{"type":"${type}",`));
    const [model] = frames('vrm_model');
    expect(state).toContain(`{"vrm_model":{${model?.slice('{"type":"vrm_model",'.length)},`);
    const broadcast = frames('vrm_face').at(-1) ?? '';
    expect(broadcast).toBe('{"type":"vrm_face","values":{"Joy":0.75}}');
    expect(state).toContain(`,"face_values":${broadcast.slice('{"type":"vrm_face","values":'.length, -1)},"audio":null}`);
  });
});
