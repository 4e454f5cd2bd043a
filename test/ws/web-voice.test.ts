import { describe, expect, it } from 'vitest';
import { FIXTURE_SKINS } from '../helpers/body.ts';
import { pcmFrames, spokenPcm, streamAtRealTime } from '../helpers/audio.ts';
import { shippedRoots } from '../helpers/component-roots.ts';
import { useFakeOpenAi } from '../helpers/openai-server.ts';
import { useTestApp } from '../helpers/services.ts';
import { openSocket, type OpenedSocket, useSockets } from '../helpers/sockets.ts';

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
/** The question said with a pause in the middle: the first half is an end candidate that the rest withdraws. */
const PAUSED = ['please turn on the kitchen light', 'and play some music'] as const;
const PHRASES = [...QUESTION.split(' ').map((_, index, words) => words.slice(0, index + 1).join(' ')), BARGE_IN];

describe('WS /api/audio/stream bound to a web conversation', () => {
  const fake = useFakeOpenAi();
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
  const sockets = useSockets();
  let base = '';

  async function start(environment: Record<string, string> = {}) {
    await subject.start({ environment: { OPENAI_BASE_URL: fake.baseUrl, ...environment } });
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

  /** `text` spoken at real-time pace, then `silenceS` of silence (longer than LIVE_VAD_SILENCE_MS, or the utterance never ends). */
  const speak = async (socket: OpenedSocket, text: string, silenceS = 1) =>
    streamAtRealTime((frame) => socket.socket.send(frame), pcmFrames(await spokenPcm(subject.harness.services.audio, text, silenceS)));

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

  /** What the model was asked: the last user line of each request. */
  const asked = () => fake.requests.map((request) => request.body.messages?.at(-1)?.content);

  it(
    'starts answering when the person pauses, and shows the turn only once the end of speech is certain',
    async () => {
      // A long end of speech, so "before the end" is a wide window even on a loaded machine.
      await start({ LIVE_VAD_SILENCE_MS: '2500', LIVE_VAD_ANTICIPATE_MS: '200' });
      const chat = await window();
      chat.socket.socket.send(JSON.stringify({ type: 'voice', speak: true }));
      const mic = await live({ sample_rate: 16000, engine: 'vad', interface_path: chat.path });
      await mic.next(is('ready'));
      const atRequest: Array<{ ended: boolean; shown: number; stored: Promise<number> }> = [];
      fake.answerFor = () => {
        atRequest.push({
          ended: indexOf(mic, is('vad', { signal: 'speech_end' })) >= 0,
          shown: chat.socket.messages.filter((message) => ['chat_message', 'chat_delta', 'tts_play', 'typing'].includes((message as Message).type)).length,
          stored: subject.harness.services.history.chat.load(chat.path).then((rows) => rows.length),
        });
        return { kind: 'reply', text: 'It is noon. Time for lunch.', chunkSize: 4, delayMs: 10 };
      };
      await speak(mic, BARGE_IN, 3);

      expect(await chat.socket.next(is('chat_message', { role: 'user' }), PATIENCE_MS)).toMatchObject({ text: BARGE_IN });
      const play = (await chat.socket.next(is('tts_play'), PATIENCE_MS)) as Message;
      expect(await chat.socket.next(is('chat_message', { role: 'assistant' }), PATIENCE_MS)).toMatchObject({ text: 'It is noon. Time for lunch.' });
      // The model was asked once, while the person was still (as far as anyone knew) speaking, and nothing showed then.
      expect(asked()).toEqual([`User: ${BARGE_IN}`]);
      expect(atRequest).toHaveLength(1);
      expect(atRequest[0]?.ended).toBe(false);
      expect(atRequest[0]?.shown).toBe(0);
      expect(await atRequest[0]?.stored).toBe(0);
      // The end of speech came before any of it.
      expect(indexOf(mic, is('vad', { signal: 'speech_end' }))).toBeGreaterThan(-1);
      expect(play).toMatchObject({ seq: 0 });
      expect((await subject.harness.services.history.chat.load(chat.path)).map((row) => row.text)).toEqual([BARGE_IN, 'It is noon. Time for lunch.']);
    },
    3 * PATIENCE_MS,
  );

  it(
    'drops the answer begun at a pause when the person goes on speaking, and answers what they said in the end',
    async () => {
      await start({ LIVE_VAD_SILENCE_MS: '2500', LIVE_VAD_ANTICIPATE_MS: '200' });
      const chat = await window();
      const mic = await live({ sample_rate: 16000, engine: 'vad', interface_path: chat.path });
      await mic.next(is('ready'));
      // The first answer (to the first half) is written slowly: it is still being written when the person goes on.
      fake.answerFor = () =>
        fake.requests.length === 1
          ? { kind: 'reply', text: 'Withdrawn answer, never to be seen.', chunkSize: 1, delayMs: 200 }
          : { kind: 'reply', text: 'It is noon.' };
      const { audio } = subject.harness.services;
      const first = await spokenPcm(audio, PAUSED[0], 1);
      const rest = await spokenPcm(audio, PAUSED[1], 3);
      const both = new Int16Array(first.length + rest.length);
      both.set(first);
      both.set(rest, first.length);
      await streamAtRealTime((frame) => mic.socket.send(frame), pcmFrames(both));

      expect(await chat.socket.next(is('chat_message', { role: 'assistant' }), PATIENCE_MS)).toMatchObject({ text: 'It is noon.' });
      // The first half was offered and withdrawn on the mic socket; the model was asked about it, then about the final.
      const candidate = mic.messages.find(is('partial', { text: PAUSED[0] }));
      expect(candidate).toBeDefined();
      const final = String((mic.messages.find(is('final')) as Message).text);
      expect(asked()).toEqual([`User: ${PAUSED[0]}`, `User: ${final}`]);
      // The window and the history hold only the turn of the final.
      expect(chat.socket.messages.filter(is('chat_message')).map((message) => (message as Message).text)).toEqual([final, 'It is noon.']);
      expect(
        chat.socket.messages
          .filter(is('chat_delta'))
          .map((message) => (message as Message).text)
          .join(''),
      ).toBe('It is noon.');
      expect((await subject.harness.services.history.chat.load(chat.path)).map((row) => row.text)).toEqual([final, 'It is noon.']);
    },
    3 * PATIENCE_MS,
  );
});
