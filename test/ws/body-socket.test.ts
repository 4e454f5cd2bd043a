import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURE_SKINS } from '../helpers/body.ts';
import { ManualClock } from '../helpers/manual-clock.ts';
import { useTestApp } from '../helpers/services.ts';
import { expireHellos, openSocket, type OpenedSocket } from '../helpers/sockets.ts';

const HELLO_TIMEOUT_MS = 300;

type Message = { type: string; [key: string]: unknown };
const ofType = (type: string) => (message: unknown) => (message as Message).type === type;

describe('body sockets (WS /ws and WS /api/body/ws)', () => {
  const subject = useTestApp({ startInTest: true, listen: true, environment: { SKINS_DIR: FIXTURE_SKINS }, helloTimeoutMs: HELLO_TIMEOUT_MS });
  let sockets: OpenedSocket[] = [];
  let base = '';

  async function start(environment: Record<string, string> = {}, clock?: ManualClock) {
    await subject.start({ environment, ...(clock ? { clock } : {}) });
    base = `ws://127.0.0.1:${subject.ports.web}`;
  }

  async function connect(path = '/ws') {
    const opened = await openSocket(`${base}${path}`);
    sockets.push(opened);
    return opened;
  }

  /** Connects and says hello, then waits for the end of the welcome (the face values). */
  async function joined(path = '/ws', hello: Record<string, unknown> = {}) {
    const client = await connect(path);
    client.socket.send(JSON.stringify({ type: 'hello', has_assets: [], ...hello }));
    await client.next(ofType('vrm_face'));
    return client;
  }

  const requestState = (payload: object) => subject.app.inject({ method: 'POST', url: '/api/animation_state', payload });

  afterEach(() => {
    for (const { socket } of sockets) socket.terminate();
    sockets = [];
  });

  it('sends nothing before the hello, not even broadcasts', async () => {
    const clock = new ManualClock();
    await start({}, clock);
    const client = await connect();
    await requestState({ state: 'think', context_id: 'a' });
    subject.harness.services.body.setFaceValues({ Joy: 1 });
    await expireHellos(subject.harness.services.gate, clock, HELLO_TIMEOUT_MS);
    expect(await client.closed).toBe(4401);
    expect(client.messages).toEqual([]);
  });

  it('after the hello pushes the missing model, then the current animation and its summary, then model and face', async () => {
    await start();
    await requestState({ state: 'think', context_id: 'a' });
    const fresh = await joined();
    expect(fresh.messages.map((message) => (message as Message).type)).toEqual(['vrm_model', 'vrm_animation', 'animation_state', 'vrm_face']);
    expect(fresh.messages[1]).toMatchObject({ type: 'vrm_animation', state: 'think', file: '/skins/default/animations/think/Thinking.fbx', loop: true });
    expect(fresh.messages[1]).not.toHaveProperty('reset_eyes');
    expect(fresh.messages[2]).toEqual({ type: 'animation_state', state: 'think', animation_file: 'Thinking.fbx' });

    const hash = subject.harness.services.body.getVrmModel()?.hash ?? '';
    const cached = await joined('/api/body/ws', { has_assets: [hash] });
    expect(cached.messages.map((message) => (message as Message).type)).toEqual(['vrm_animation', 'animation_state', 'vrm_model', 'vrm_face']);
    expect(cached.messages[2]).toEqual({ type: 'vrm_model', name: 'anima', url: '/skins/default/anima.vrm', hash });
  });

  it('includes the speech audio in progress with its offset', async () => {
    await start();
    subject.harness.services.body.setAudio({ url: '/tts/now.wav', audio_duration_s: 60 });
    const client = await connect();
    client.socket.send(JSON.stringify({ type: 'hello' }));
    const audio = (await client.next(ofType('vrm_audio'))) as { audio: { url: string; offset_s: number } };
    expect(audio.audio.url).toBe('/tts/now.wav');
    expect(audio.audio.offset_s).toBeGreaterThanOrEqual(0);
  });

  it('broadcasts every change to all windows on both sockets, identically and without reset_eyes', async () => {
    await start();
    const clients = [await joined(), await joined(), await joined(), await joined('/api/body/ws')];
    for (const client of clients) client.messages.length = 0;
    await requestState({ state: 'write', context_id: 'w' });
    const received = await Promise.all(clients.map((client) => client.next(ofType('vrm_animation'))));
    for (const message of received) {
      expect(message).toMatchObject({ state: 'write' });
      expect(message).not.toHaveProperty('reset_eyes');
      expect(message).toEqual(received[0]);
    }
    subject.harness.services.body.setFaceValues({ Joy: 0.3 });
    subject.harness.services.body.setExpression('surprised', 0.9);
    subject.harness.services.body.setVrmModel('/uploads/m.vrm', 'm', 'sha256:00');
    for (const client of clients) {
      await client.next((message) => ofType('vrm_face')(message) && (message as { values: { Joy?: number } }).values.Joy === 0.3);
      await client.next(ofType('vrm_expression_set'));
      await client.next(ofType('vrm_model'));
    }
  });

  it('gives reset_eyes to the targeted session only, once', async () => {
    await start();
    const grant = subject.harness.services.trust.tokens.issue();
    const target = await joined('/ws', { token: grant.token });
    const other = await joined();
    target.messages.length = 0;
    other.messages.length = 0;
    await requestState({ state: 'think', session_id: grant.session_id, context_id: 't' });
    expect(await target.next(ofType('vrm_animation'))).toMatchObject({ state: 'think', reset_eyes: true });
    expect(await other.next(ofType('vrm_animation'))).not.toHaveProperty('reset_eyes');
    await requestState({ state: 'write', context_id: 't' });
    await target.next((message) => ofType('vrm_animation')(message) && (message as Message).state === 'write');
    expect(target.messages.filter((message) => ofType('vrm_animation')(message) && (message as Message).state === 'think')).toHaveLength(1);
  });

  it('ends a non-looping clip on the client completion event', async () => {
    await start();
    const client = await joined();
    // A single play: a held talk would play the clip again until its context stops.
    await requestState({ state: 'talk', context_id: 'speech', loop: false });
    const talk = (await client.next((message) => ofType('vrm_animation')(message) && (message as Message).state === 'talk')) as Message;
    expect(talk.loop).toBe(false);
    client.socket.send(JSON.stringify({ type: 'animation_complete', file: talk.file, state: 'talk' }));
    await client.next(
      (message) =>
        ofType('vrm_animation')(message) && (message as Message).state === 'idle' && client.messages.indexOf(message) > client.messages.indexOf(talk),
    );
    expect(subject.harness.services.body.getAnimation().state).toBe('idle');
  });

  it('answers a bad frame with an error message and keeps the socket usable', async () => {
    await start();
    const client = await joined('/api/body/ws');
    client.socket.send('{not json');
    expect(await client.next(ofType('error'))).toMatchObject({ type: 'error', code: 'invalid_json', message: expect.any(String) });
    client.socket.send(JSON.stringify({ type: 'animation_complete', file: 'x' }));
    await client.next((message) => ofType('error')(message) && (message as Message).code === 'invalid_message');
    client.socket.send(JSON.stringify({ type: 'dance' }));
    client.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    await client.next((message) => ofType('error')(message) && (message as Message).code === 'binary_not_supported');
    client.socket.send(JSON.stringify({ type: 'ping' }));
    await client.next(ofType('pong'));
    expect(client.socket.readyState).toBe(client.socket.OPEN);
  });

  it('keeps messages sent right behind the hello', async () => {
    await start();
    const client = await connect();
    client.socket.send(JSON.stringify({ type: 'hello' }));
    client.socket.send(JSON.stringify({ type: 'ping' }));
    await client.next(ofType('pong'));
    const types = client.messages.map((message) => (message as Message).type);
    expect(types.indexOf('pong')).toBeGreaterThan(types.indexOf('vrm_face'));
  });

  it('closes a flooding socket with 1008', async () => {
    await start();
    const client = await joined();
    for (let index = 0; index < 200; index += 1) client.socket.send(JSON.stringify({ type: 'ping' }));
    expect(await client.closed).toBe(1008);
  });

  it('closes with 4401 on a bad token or a missing hello', async () => {
    const clock = new ManualClock();
    await start({}, clock);
    const forged = await connect('/api/body/ws');
    forged.socket.send(JSON.stringify({ type: 'hello', token: 'forged' }));
    expect(await forged.closed).toBe(4401);
    const silent = await connect('/ws');
    await expireHellos(subject.harness.services.gate, clock, HELLO_TIMEOUT_MS);
    expect(await silent.closed).toBe(4401);
    expect(silent.messages).toEqual([]);
  });

  it('requires a token from loopback when APP_TRUST_LOOPBACK is false', async () => {
    await start({ APP_TRUST_LOOPBACK: 'false' });
    const bare = await connect('/ws');
    bare.socket.send(JSON.stringify({ type: 'hello' }));
    expect(await bare.closed).toBe(4401);
    const { token } = subject.harness.services.trust.tokens.issue();
    await joined('/ws', { token });
  });
});
