import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ENGINE_ERROR_NOTICE } from '../../src/chain/message-chain.ts';
import { FIXTURE_SKINS } from '../helpers/body.ts';
import { shippedRoots } from '../helpers/component-roots.ts';
import { gate, useFakeOpenAi } from '../helpers/openai-server.ts';
import { useTestApp } from '../helpers/services.ts';
import { openSocket, type OpenedSocket, useSockets } from '../helpers/sockets.ts';

type Message = { type: string; [key: string]: unknown };
const ofType = (type: string) => (message: unknown) => (message as Message).type === type;
const chatMessage = (role: string, text?: string) => (message: unknown) => {
  const m = message as Message;
  return m.type === 'chat_message' && m.role === role && (text === undefined || m.text === text);
};
const MARKER = 'Everything before this has arrived.';
const typesOf = (socket: OpenedSocket, types: string[]) => socket.messages.filter((message) => types.includes((message as Message).type)) as Message[];

describe('web chat over WS /ws', () => {
  const fake = useFakeOpenAi();
  const subject = useTestApp({
    startInTest: true,
    listen: true,
    componentRoots: shippedRoots,
    environment: { SKINS_DIR: FIXTURE_SKINS, CORTEX_ENGINE: 'openai', OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'gpt-test', OPENAI_MAX_RETRIES: '0' },
  });
  const sockets = useSockets();
  let base = '';

  async function start(environment: Record<string, string> = {}) {
    await subject.start({ environment: { OPENAI_BASE_URL: fake.baseUrl, ...environment } });
    base = `ws://127.0.0.1:${subject.ports.web}`;
  }

  /** A window: connected, greeted, and holding its chat history. */
  async function window(path = '/ws') {
    const opened = await openSocket(`${base}${path}`);
    sockets.push(opened);
    opened.socket.send(JSON.stringify({ type: 'hello', has_assets: [] }));
    if (path === '/ws') await opened.next(ofType('chat_history'));
    else await opened.next(ofType('vrm_face'));
    return opened;
  }

  const send = (window: OpenedSocket, message: object) => window.socket.send(JSON.stringify(message));
  /**
   * Says MARKER in the web session's conversation and waits until `window` has it: whatever the server
   * sent that window before is there by then (a socket's frames keep their order), so its absence is proven.
   */
  const marked = async (window: OpenedSocket) => {
    const { interface_path: path } = subject.harness.services.history.sessions.connect();
    subject.harness.services.webChat.say(path, MARKER);
    await window.next(chatMessage('assistant', MARKER));
  };
  const settled = async () => {
    while (subject.harness.services.chain.pending > 0) await delay(2);
  };

  it('sends the conversation (oldest first, contract shape) right after the hello', async () => {
    await start();
    const { interface_path: path } = subject.harness.services.history.sessions.connect();
    await subject.harness.services.history.chat.save({ interface_path: path, message_text: 'first', sender_id: 'someone', sender_name: 'User' });
    await subject.harness.services.history.chat.saveOwn(path, 'second');
    const opened = await openSocket(`${base}/ws`);
    sockets.push(opened);
    send(opened, { type: 'hello', has_assets: [] });
    const history = (await opened.next(ofType('chat_history'))) as Message;
    expect(history).toEqual({
      type: 'chat_history',
      interface_path: path,
      messages: [
        { id: expect.any(String), role: 'user', username: 'User', text: 'first', timestamp: expect.any(String), interface_path: path },
        { id: expect.any(String), role: 'assistant', username: 'self', text: 'second', timestamp: expect.any(String), interface_path: path },
      ],
    });
    // After the body's welcome (the face values come last in it).
    const types = opened.messages.map((message) => (message as Message).type);
    expect(types.indexOf('chat_history')).toBeGreaterThan(types.indexOf('vrm_face'));
  });

  it('echoes the message with its id to every window, shows typing, and answers through the chain', async () => {
    await start();
    const [a, b] = [await window(), await window()];
    fake.script({ kind: 'reply', text: 'Hello from the model!', chunkSize: 5, delayMs: 10 });
    send(a, { type: 'chat', text: '  Hi Anima  ', id: 'client-1' });
    for (const w of [a, b]) {
      expect(await w.next(chatMessage('user'))).toEqual({
        type: 'chat_message',
        id: 'client-1',
        role: 'user',
        username: 'User',
        text: 'Hi Anima',
        timestamp: expect.any(String),
        interface_path: expect.stringMatching(/^webui\/[\w-]+$/),
      });
      expect(await w.next(chatMessage('assistant', 'Hello from the model!'))).toMatchObject({ username: 'self', id: expect.any(String) });
      await w.next((message) => ofType('typing')(message) && (message as Message).active === false);
      expect(typesOf(w, ['chat_message', 'typing', 'chat_error']).map((m) => `${m.type}:${String(m.role ?? m.active ?? '')}`)).toEqual([
        'chat_message:user',
        'typing:true',
        'chat_message:assistant',
        'typing:false',
      ]);
    }
    expect(fake.requests.at(-1)?.body.messages?.at(-1)).toEqual({ role: 'user', content: 'User: Hi Anima' });
    // Saved once each: the user's words by the chain's intake, the reply as `self` by the dispatch.
    const { interface_path: path } = subject.harness.services.history.sessions.connect();
    const saved = await subject.harness.services.history.chat.load(path);
    expect(saved.map((message) => [message.sender_id === 'self' ? 'self' : 'user', message.text])).toEqual([
      ['user', 'Hi Anima'],
      ['self', 'Hello from the model!'],
    ]);
  });

  it('a window that opens while an answer is prepared sees typing, then the reply', async () => {
    await start();
    const a = await window();
    const answer = gate();
    fake.script({ kind: 'reply', text: 'Slow answer', chunkSize: 2, hold: { at: 0, release: answer.release } });
    send(a, { type: 'chat', text: 'Take your time', id: 'slow' });
    await a.next((message) => ofType('typing')(message) && (message as Message).active === true);
    const late = await window();
    expect(await late.next(ofType('typing'))).toEqual({ type: 'typing', active: true });
    answer.open();
    await late.next(chatMessage('assistant', 'Slow answer'));
  });

  it('answers an engine failure with chat_error, never a reply', async () => {
    await start();
    const a = await window();
    fake.script({ kind: 'status', status: 400, message: 'bad model' });
    send(a, { type: 'chat', text: 'Hello?', id: 'x' });
    expect(await a.next(ofType('chat_error'))).toEqual({ type: 'chat_error', message: ENGINE_ERROR_NOTICE });
    await a.next((message) => ofType('typing')(message) && (message as Message).active === false);
    await settled();
    expect(a.messages.some(chatMessage('assistant'))).toBe(false);
  });

  it('turns away bad chat frames with the usual error, and chat on the body API socket', async () => {
    await start();
    const a = await window();
    for (const bad of [
      { type: 'chat', text: '   ', id: 'e' },
      { type: 'chat', text: 'x'.repeat(4001), id: 'l' },
      { type: 'chat', text: 'no id' },
    ]) {
      send(a, bad);
      expect(await a.next(ofType('error'))).toMatchObject({ type: 'error', code: 'invalid_message' });
      a.messages.length = 0;
    }
    const body = await window('/api/body/ws');
    send(body, { type: 'chat', text: 'hi', id: '1' });
    expect(await body.next(ofType('error'))).toEqual({ type: 'error', code: 'invalid_message', message: 'chat is answered on /ws only' });
    expect(fake.requests).toEqual([]);
  });

  it('answers an attention command at once, as a system message to every window', async () => {
    await start();
    const [a, b] = [await window(), await window()];
    send(a, { type: 'chat', text: '/status', id: 'cmd' });
    for (const w of [a, b]) {
      await w.next(chatMessage('user', '/status'));
      expect(await w.next(chatMessage('system'))).toMatchObject({ text: expect.stringMatching(/^Status: awake/) });
    }
    expect(a.messages.some(ofType('typing'))).toBe(false);
    expect(fake.requests).toEqual([]);
  });

  it('tells the sender when the per-user rate limit turns a message away', async () => {
    await start({ CHAT_RATE_LIMIT_BURST: '1', CHAT_RATE_LIMIT_PER_MINUTE: '1' });
    const [a, b] = [await window(), await window()];
    fake.script({ kind: 'reply', text: 'One' });
    send(a, { type: 'chat', text: 'one', id: '1' });
    await a.next(chatMessage('assistant', 'One'));
    send(a, { type: 'chat', text: 'two', id: '2' });
    expect(await a.next(ofType('chat_error'))).toEqual({ type: 'chat_error', message: expect.stringMatching(/too quickly; try again in \d+ s/) });
    await marked(b);
    expect(b.messages.some(ofType('chat_error'))).toBe(false);
    expect(b.messages.filter(chatMessage('user'))).toHaveLength(1);
  });

  it('replaces every window’s conversation after an archive (empty) and a restore (restored: true)', async () => {
    await start();
    const [a, b] = [await window(), await window()];
    fake.script({ kind: 'reply', text: 'Noted.' });
    send(a, { type: 'chat', text: 'Remember this', id: 'r1' });
    await a.next(chatMessage('assistant', 'Noted.'));
    const archived = await subject.app.inject({ method: 'POST', url: '/api/chat/archive' });
    expect(archived.statusCode).toBe(200);
    for (const w of [a, b]) {
      expect(await w.next((message) => ofType('chat_history')(message) && (message as Message).restored === false)).toMatchObject({ messages: [] });
    }
    const restored = await subject.app.inject({ method: 'POST', url: '/api/chat/restore', payload: { archive_id: archived.json().archive_id } });
    expect(restored.json()).toMatchObject({ success: true, restored: 2 });
    for (const w of [a, b]) {
      const history = (await w.next((message) => ofType('chat_history')(message) && (message as Message).restored === true)) as {
        messages: Array<{ role: string; text: string; id: unknown }>;
      };
      expect(history.messages.map((m) => [m.role, m.text])).toEqual([
        ['user', 'Remember this'],
        ['assistant', 'Noted.'],
      ]);
      expect(typeof history.messages[0]?.id).toBe('string');
    }
  });

  it('speaks tts_speak answers as tts_play to the conversation, with the caption as the reply', async () => {
    await start();
    const a = await window();
    fake.script({
      kind: 'reply',
      text: '{"actions": [{"type": "tts_speak", "payload": {"text": "Hello out loud"}}, {"type": "message_webui", "payload": {"text": "Hello out loud!"}}]}',
    });
    send(a, { type: 'chat', text: 'Say hello', id: 's' });
    const play = (await a.next(ofType('tts_play'), 15_000)) as Message;
    expect(play).toEqual({
      type: 'tts_play',
      url: expect.stringMatching(/^\/tts\/vox-.*\.wav$/),
      audio_duration_s: expect.any(Number),
      lipsync: expect.objectContaining({ mouths: expect.any(Array) }),
      text: 'Hello out loud!',
      // One tts_speak is an utterance of one piece.
      utterance_id: expect.any(String),
      seq: 0,
      last: true,
    });
    // The body announces the same file to every avatar window: the page plays a URL once (avatar/speech.ts).
    expect(a.messages.find(ofType('vrm_audio'))).toMatchObject({ audio: { url: play.url } });
    await a.next(chatMessage('assistant', 'Hello out loud!'));
    await settled();
    await marked(a);
    // The merged message was suppressed: one reply in the chat (and the marker), one saved.
    expect(a.messages.filter(chatMessage('assistant')).map((message) => (message as Message).text)).toEqual(['Hello out loud!', MARKER]);
    const { interface_path: path } = subject.harness.services.history.sessions.connect();
    expect((await subject.harness.services.history.chat.load(path)).map((message) => message.text)).toEqual(['Say hello', 'Hello out loud!']);
  });

  describe('MULTI_SESSION', () => {
    it('gives each socket its own conversation, and releases it on close', async () => {
      await start({ MULTI_SESSION: 'true' });
      const [a, b] = [await window(), await window()];
      const pathOf = (w: OpenedSocket) => (w.messages.find(ofType('chat_history')) as { interface_path: string }).interface_path;
      expect(pathOf(a)).not.toBe(pathOf(b));
      fake.script({ kind: 'reply', text: 'Only for A' });
      send(a, { type: 'chat', text: 'Private', id: 'p' });
      await a.next(chatMessage('assistant', 'Only for A'));
      // B's pong comes after anything the answer could have sent B.
      send(b, { type: 'ping' });
      await b.next(ofType('pong'));
      expect(b.messages.some((message) => ['chat_message', 'typing'].includes((message as Message).type))).toBe(false);

      // Speech for A's conversation reaches A only.
      const outlet = subject.harness.services.audio.vox.outlets.for('webui');
      await outlet?.audio({
        interfacePath: pathOf(a),
        url: '/tts/x.wav',
        path: '/tmp/x.wav',
        wav: new Uint8Array(),
        durationS: 1,
        lipsync: null,
        text: 'Hi A',
      });
      await a.next(ofType('tts_play'));
      expect(b.messages.some(ofType('tts_play'))).toBe(false);

      const sessionOfA = pathOf(a).split('/')[1];
      expect((await subject.app.inject({ method: 'GET', url: `/api/chat/session_meta?session_id=${sessionOfA}` })).statusCode).toBe(200);
      a.socket.close();
      await a.closed;
      await expect.poll(async () => (await subject.app.inject({ method: 'GET', url: `/api/chat/session_meta?session_id=${sessionOfA}` })).statusCode).toBe(404);
    });
  });
});
