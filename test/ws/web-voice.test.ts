import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_SKINS } from '../helpers/body.ts';
import { pcmFrames, spokenPcm, streamAtRealTime } from '../helpers/audio.ts';
import { shippedRoots } from '../helpers/component-roots.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../helpers/openai-server.ts';
import { useTestApp } from '../helpers/services.ts';
import { openSocket, type OpenedSocket } from '../helpers/sockets.ts';

type Message = { type: string; [key: string]: unknown };
/** pocketsphinx (with ffmpeg before it) starts processes per utterance: on a loaded machine a transcript takes long. */
const PATIENCE_MS = 120_000;
const is =
  (type: string, fields: Record<string, unknown> = {}) =>
  (message: unknown) =>
    (message as Message).type === type && Object.entries(fields).every(([key, value]) => (message as Message)[key] === value);
const indexOf = (socket: OpenedSocket, predicate: (message: unknown) => boolean) => socket.messages.findIndex(predicate);

/**
 * pocketsphinx is exact only within a grammar: these phrases are all it can hear. Every beginning of the
 * question is one, so a partial transcript of the utterance so far has words to match.
 */
const QUESTION = 'please turn on the kitchen light and play some music';
const BARGE_IN = 'what time is it';
const PHRASES = [...QUESTION.split(' ').map((_, index, words) => words.slice(0, index + 1).join(' ')), BARGE_IN];

describe('WS /api/audio/stream bound to a web conversation', () => {
  let fake: FakeOpenAi;
  const subject = useTestApp({
    startInTest: true,
    listen: true,
    componentRoots: shippedRoots,
    environment: {
      SKINS_DIR: FIXTURE_SKINS,
      CORTEX_ENGINE: 'openai',
      OPENAI_API_KEY: 'sk-test',
      OPENAI_MODEL: 'gpt-test',
      OPENAI_MAX_RETRIES: '0',
      LIVE_CORTEX: 'vad',
      ACTIVE_AURIS_ENGINE: 'pocketsphinx',
      AURIS_ENGINE_SETTINGS: JSON.stringify({ phrases: PHRASES }),
    },
  });
  let sockets: OpenedSocket[] = [];
  let base = '';

  beforeAll(async () => {
    fake = await startFakeOpenAi({ apiKey: 'sk-test' });
  });
  afterAll(async () => fake?.close());
  afterEach(() => {
    for (const { socket } of sockets) socket.terminate();
    sockets = [];
    fake.reset();
  });

  async function start() {
    await subject.start({ environment: { OPENAI_BASE_URL: fake.baseUrl } });
    base = `ws://127.0.0.1:${subject.ports.web}`;
  }

  /** A chat window holding its history; its conversation's path comes with it. */
  async function window(): Promise<{ socket: OpenedSocket; path: string }> {
    const opened = await openSocket(`${base}/ws`);
    sockets.push(opened);
    opened.socket.send(JSON.stringify({ type: 'hello', has_assets: [] }));
    const history = (await opened.next(is('chat_history'))) as Message;
    return { socket: opened, path: String(history.interface_path) };
  }

  /** A live socket past its hello with this config frame. */
  async function live(config: unknown): Promise<OpenedSocket> {
    const opened = await openSocket(`${base}/api/audio/stream`);
    sockets.push(opened);
    opened.socket.send(JSON.stringify({ type: 'hello' }));
    opened.socket.send(JSON.stringify(config));
    return opened;
  }

  const speak = async (socket: OpenedSocket, text: string) =>
    streamAtRealTime((frame) => socket.socket.send(frame), pcmFrames(await spokenPcm(subject.harness.services.audio, text, 1)));

  it(
    'hears a spoken question as the user message of the conversation, answers it there, with partial transcripts before the final',
    async () => {
      await start();
      const chat = await window();
      fake.script({ kind: 'reply', text: 'The light is on. Here is some music.', chunkSize: 4, delayMs: 10 });
      const mic = await live({ sample_rate: 16000, engine: 'vad', interface_path: chat.path });
      const ready = (await mic.next(is('ready'))) as Message;
      await speak(mic, QUESTION);

      expect(await chat.socket.next(is('chat_message', { role: 'user' }), PATIENCE_MS)).toMatchObject({ text: QUESTION, interface_path: chat.path });
      expect(await chat.socket.next(is('chat_message', { role: 'assistant' }), PATIENCE_MS)).toMatchObject({ text: 'The light is on. Here is some music.' });
      expect(fake.requests.at(-1)?.body.messages?.at(-1)).toEqual({ role: 'user', content: `User: ${QUESTION}` });
      // The live socket still shows what it heard: partials of the utterance, then its final.
      const final = indexOf(mic, is('final', { text: QUESTION }));
      expect(final).toBeGreaterThan(-1);
      const partial = indexOf(mic, is('partial'));
      expect(partial).toBeGreaterThan(-1);
      expect(partial).toBeLessThan(final);
      expect(QUESTION.startsWith(String((mic.messages[partial] as Message).text))).toBe(true);
      // The recogniser's time is the turn's stt stage, in the window's latency panel and in /api/metrics.
      const stages = (await chat.socket.next(is('turn_stages'), PATIENCE_MS)) as { stages: Record<string, unknown> };
      expect(stages.stages.stt).toEqual(expect.any(Number));
      expect(await subject.harness.services.metrics.text()).toMatch(/anima_stage_seconds_count\{stage="stt"\} 1\b/);
      // The words live in the web conversation's history, not in a live/<session> one.
      const texts = async (path: string) => (await subject.harness.services.history.chat.load(path)).map((message) => message.text);
      expect(await texts(chat.path)).toContain(QUESTION);
      expect(await texts(`live/${String(ready.session_id)}`)).toEqual([]);
    },
    3 * PATIENCE_MS,
  );

  it('refuses an interface_path that is not a web conversation a window shows, with an error and 4400', async () => {
    await start();
    await window();
    for (const path of ['live/abc', 'webui/', 'webui/a/b', 'webui/no window shows', 'webui/nobody-shows-this', 42]) {
      const mic = await live({ sample_rate: 16000, engine: 'vad', interface_path: path });
      expect(await mic.closed).toBe(4400);
      expect(mic.messages).toEqual([{ type: 'error', detail: expect.any(String) }]);
    }
  });

  it(
    'stops what the conversation is saying when the person starts speaking (barge-in)',
    async () => {
      await start();
      const chat = await window();
      chat.socket.socket.send(JSON.stringify({ type: 'voice', speak: true }));
      const mic = await live({ sample_rate: 16000, engine: 'vad', interface_path: chat.path });
      await mic.next(is('ready'));
      // A long answer written slowly: its first sentence is spoken while the rest is still pending.
      const story = 'Once upon a time there was a robot. It liked to sing. It sang every morning. It sang every night. The end.';
      fake.script({ kind: 'reply', text: story, chunkSize: 2, delayMs: 40 });
      chat.socket.socket.send(JSON.stringify({ type: 'chat', text: 'Tell me a story', id: 'story-1' }));
      const play = (await chat.socket.next(is('tts_play'), PATIENCE_MS)) as Message;

      await speak(mic, BARGE_IN);
      const stop = (await chat.socket.next(is('tts_stop'), PATIENCE_MS)) as Message;
      expect(stop.utterance_id).toBe(play.utterance_id);
      expect(indexOf(mic, is('vad', { signal: 'speech_start' }))).toBeGreaterThan(-1);
      // Nothing more of the interrupted reply is spoken after the stop.
      const after = chat.socket.messages.slice(chat.socket.messages.indexOf(stop));
      expect(after.filter((message) => is('tts_play', { utterance_id: play.utterance_id })(message))).toEqual([]);
    },
    3 * PATIENCE_MS,
  );
});
