import { describe, expect, it } from 'vitest';
import { INTERRUPTED_MARKER } from '../../src/chat/web-chat.ts';
import { FIXTURE_SKINS } from '../helpers/body.ts';
import { shippedRoots } from '../helpers/component-roots.ts';
import { describeEachDialect } from '../helpers/dialects.ts';
import { ManualClock } from '../helpers/manual-clock.ts';
import { gate, useFakeOpenAi } from '../helpers/openai-server.ts';
import { useTestApp } from '../helpers/services.ts';
import { openSocket, type OpenedSocket, useSockets } from '../helpers/sockets.ts';

type Message = { type: string; [key: string]: unknown };
const ofType = (type: string) => (message: unknown) => (message as Message).type === type;
const assistantMessage = (message: unknown) => ofType('chat_message')(message) && (message as Message).role === 'assistant';
const plays = (w: OpenedSocket) => w.messages.filter(ofType('tts_play')) as Message[];
const lastPlay = (message: unknown) => ofType('tts_play')(message) && (message as Message).last === true;
/** Synthesis with the bundled espeak-ng engine takes a moment on a loaded machine. */
const SPEECH_MS = 20_000;

const REPLY = 'Hello there. How are you today? I am fine, thanks!';

describeEachDialect('spoken web chat over WS /ws', (dialect) => {
  const fake = useFakeOpenAi();
  const clock = new ManualClock();
  const subject = useTestApp({
    startInTest: true,
    listen: true,
    dialect,
    componentRoots: shippedRoots,
    clock,
    environment: {
      SKINS_DIR: FIXTURE_SKINS,
      CORTEX_ENGINE: 'openai',
      OPENAI_API_KEY: 'sk-test',
      OPENAI_MODEL: 'gpt-test',
      OPENAI_MAX_RETRIES: '0',
      ACTIVE_VOX_ENGINE: 'local',
    },
  });
  const sockets = useSockets();

  async function start(environment: Record<string, string> = {}) {
    await subject.start({ environment: { OPENAI_BASE_URL: fake.baseUrl, ...environment } });
  }

  /** A window with its voice switch (unset: the default). */
  async function window(speak?: boolean) {
    const opened = await openSocket(`ws://127.0.0.1:${subject.ports.web}/ws`);
    sockets.push(opened);
    opened.socket.send(JSON.stringify({ type: 'hello', has_assets: [] }));
    await opened.next(ofType('chat_history'));
    if (speak !== undefined) opened.socket.send(JSON.stringify({ type: 'voice', speak }));
    return opened;
  }
  const send = (w: OpenedSocket, message: object) => w.socket.send(JSON.stringify(message));
  const path = () => subject.harness.services.history.sessions.connect().interface_path;
  const storedReplies = async () =>
    (await subject.harness.services.history.chat.load(path())).filter((message) => message.role === 'assistant').map((message) => message.text);

  it('streams a plain answer as deltas and speaks it sentence by sentence before the model has finished', async () => {
    await start();
    const [speaking, silent] = [await window(true), await window(false)];
    // Wait until the switch frames are in: a ping's pong comes after them on the same socket.
    for (const w of [speaking, silent]) {
      send(w, { type: 'ping' });
      await w.next(ofType('pong'));
    }
    const held = gate();
    // The stream stops after "Hello there. How" until the test opens the gate.
    fake.script({ kind: 'reply', text: REPLY, chunkSize: 4, hold: { at: 16, release: held.release } });
    send(speaking, { type: 'chat', text: 'Hi', id: 'q1' });

    const first = (await speaking.next(ofType('tts_play'), SPEECH_MS)) as Message;
    // The model has not sent its last chunk yet: the first sentence is already audio.
    expect(speaking.messages.some(assistantMessage)).toBe(false);
    expect(first).toMatchObject({ text: 'Hello there.', seq: 0, last: false, utterance_id: expect.any(String), url: expect.stringMatching(/\.wav$/) });
    expect(speaking.messages.findIndex(ofType('chat_delta'))).toBeLessThan(speaking.messages.indexOf(first));
    held.open();

    const final = (await speaking.next(assistantMessage, SPEECH_MS)) as Message;
    await speaking.next(lastPlay, SPEECH_MS);
    const deltas = speaking.messages.filter(ofType('chat_delta')) as Message[];
    expect(deltas.every((delta) => delta.id === final.id)).toBe(true);
    expect(deltas.map((delta) => delta.text).join('')).toBe(REPLY);
    expect(final.text).toBe(REPLY);
    expect(speaking.messages.findIndex(ofType('chat_delta'))).toBeLessThan(speaking.messages.indexOf(final));
    expect(plays(speaking).map((play) => [play.seq, play.text, play.last, play.utterance_id])).toEqual([
      [0, 'Hello there.', false, first.utterance_id],
      [1, 'How are you today?', false, first.utterance_id],
      [2, 'I am fine, thanks!', true, first.utterance_id],
    ]);
    // The other window shows the text, without audio; the turn's stages come at its end.
    await silent.next(assistantMessage);
    const stages = (await speaking.next(ofType('turn_stages'), SPEECH_MS)) as Message;
    expect(stages).toMatchObject({ interface_path: path(), stages: { llm_first_token: expect.any(Number), tts_first_audio: expect.any(Number) } });
    await silent.next(ofType('turn_stages'));
    expect(silent.messages.filter(ofType('chat_delta')).length).toBe(deltas.length);
    expect(plays(silent)).toEqual([]);
    expect(await storedReplies()).toEqual([REPLY]);
  });

  it('hears a spoken question: shown as the user message, answered aloud, with stt and voice_loop in the stages', async () => {
    await start();
    const w = await window(true);
    const chat = subject.harness.services.webChat;
    expect(chat.shows(path())).toBe(true);
    expect(chat.shows('webui/nobody-here')).toBe(false);
    fake.script({ kind: 'reply', text: 'It is noon. Time for lunch.' });
    await chat.hear(path(), '  What time is it?  ', { sttS: 0.25, speechEndedAt: performance.now() });
    expect(await w.next((message) => ofType('chat_message')(message) && (message as Message).role === 'user')).toMatchObject({ text: 'What time is it?' });
    // The stages close the turn, after its last piece.
    const { stages } = (await w.next(ofType('turn_stages'))) as { stages: Record<string, number> };
    expect(plays(w).map((play) => play.text)).toEqual(['It is noon.', 'Time for lunch.']);
    expect(stages).toMatchObject({ stt: 0.25, voice_loop: expect.any(Number), tts_first_audio: expect.any(Number), llm_total: expect.any(Number) });
    expect(stages.voice_loop).toBeGreaterThanOrEqual(stages.tts_first_audio as number);
    const metrics = await subject.harness.services.metrics.text();
    expect(metrics).toMatch(/anima_stage_seconds_count\{stage="voice_loop"\} [1-9]/);
    expect((await subject.harness.services.history.chat.load(path())).map((message) => message.text)).toEqual([
      'What time is it?',
      'It is noon. Time for lunch.',
    ]);
  });

  it('does not speak plain answers with WEBUI_SPEAK_REPLIES=false', async () => {
    await start({ WEBUI_SPEAK_REPLIES: 'false' });
    const w = await window();
    fake.script({ kind: 'reply', text: 'Quiet. Very quiet.' });
    send(w, { type: 'chat', text: 'Hi', id: 'q' });
    await w.next(ofType('turn_stages'), SPEECH_MS);
    expect(w.messages.some(ofType('chat_delta'))).toBe(true);
    expect(plays(w)).toEqual([]);
  });

  it('speaks an action-JSON reply once, through tts_speak, without deltas', async () => {
    await start();
    const w = await window(true);
    fake.script({ kind: 'reply', text: '{"actions": [{"type": "tts_speak", "payload": {"text": "Just once. Really."}}]}' });
    send(w, { type: 'chat', text: 'Say it', id: 'a' });
    const play = (await w.next(ofType('tts_play'), SPEECH_MS)) as Message;
    expect(play).toMatchObject({ text: 'Just once. Really.', seq: 0, last: true });
    await w.next(ofType('turn_stages'), SPEECH_MS);
    expect(plays(w)).toHaveLength(1);
    expect(w.messages.some(ofType('chat_delta'))).toBe(false);
  });

  /** A window asks; the model stops after two sentences until `held.open()`; resolves at the second piece. */
  async function twoSentencesSpoken() {
    await start();
    const w = await window(true);
    const held = gate();
    fake.script({ kind: 'reply', text: REPLY, chunkSize: 4, hold: { at: 40, release: held.release } });
    send(w, { type: 'chat', text: 'Talk to me', id: 'b' });
    const second = (await w.next((message) => ofType('tts_play')(message) && (message as Message).seq === 1, SPEECH_MS)) as Message;
    const first = plays(w)[0] as Message;
    return { w, held, first, second };
  }

  it('barge-in: tts_stop, nothing more of that utterance, and the history keeps the heard part with the marker', async () => {
    const { w, held, second } = await twoSentencesSpoken();
    subject.harness.services.webChat.interrupt(path());
    expect(await w.next(ofType('tts_stop'))).toEqual({ type: 'tts_stop', utterance_id: second.utterance_id });
    // Half of "How are you today?" was heard: "How are" (cut back to a whole word).
    send(w, { type: 'tts_heard', utterance_id: second.utterance_id, seq: 1, offset_s: Number(second.audio_duration_s) * 0.45 });
    held.open();
    await w.next(ofType('turn_stages'), SPEECH_MS);
    expect(plays(w).map((play) => play.seq)).toEqual([0, 1]);
    await expect.poll(storedReplies, { timeout: 5000 }).toEqual([`Hello there. How are ${INTERRUPTED_MARKER}`]);
  });

  it('barge-in without tts_heard keeps the pieces the server had played when the wait runs out', async () => {
    const { w, held, first } = await twoSentencesSpoken();
    // Piece 0 has played out on the server's timeline, piece 1 not yet.
    clock.advance(Number(first.audio_duration_s) * 1000 + 1);
    subject.harness.services.webChat.interrupt(path());
    await w.next(ofType('tts_stop'));
    held.open();
    await w.next(ofType('turn_stages'), SPEECH_MS);
    clock.advance(3000);
    await expect.poll(storedReplies, { timeout: 5000 }).toEqual([`Hello there. ${INTERRUPTED_MARKER}`]);
  });
});

describe('voice frames', () => {
  it('are part of the client protocol', async () => {
    const { ClientMessageSchema } = await import('../../src/realtime/protocol.ts');
    expect(ClientMessageSchema.safeParse({ type: 'voice', speak: true }).success).toBe(true);
    expect(ClientMessageSchema.safeParse({ type: 'tts_heard', utterance_id: 'u', seq: -1, offset_s: 0 }).success).toBe(false);
  });
});
