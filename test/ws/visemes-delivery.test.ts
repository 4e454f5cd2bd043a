import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { LipsyncSchema, type Lipsync } from '../../src/audio/lipsync.ts';
import { runEspeakOffThread } from '../../src/audio/vox/espeak-worker.ts';
import { FIXTURE_SKINS } from '../helpers/body.ts';
import { shippedRoots } from '../helpers/component-roots.ts';
import { useFakeOpenAi } from '../helpers/openai-server.ts';
import { useTestApp } from '../helpers/services.ts';
import { openSocket, type OpenedSocket, useSockets } from '../helpers/sockets.ts';

type Message = { type: string; [key: string]: unknown };
const ofType = (type: string) => (message: unknown) => (message as Message).type === type;
const VISEMES = new Set(['aa', 'ih', 'ou', 'ee', 'oh', 'sil']);

/** A speech server of the legacy HTTP protocol answering with real espeak-ng audio (no timing with it). */
async function espeakHttpServer(): Promise<{ base: string; close(): void }> {
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      const { text } = JSON.parse(raw || '{}') as { text?: string };
      runEspeakOffThread({ args: ['-v', 'en-us'], text: text ?? '' }).then(
        ({ wav }) => response.writeHead(200, { 'content-type': 'audio/wav' }).end(Buffer.from(wav as Uint8Array)),
        () => response.writeHead(500).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

function expectVisemeTrack(lipsync: Lipsync): void {
  expect(LipsyncSchema.safeParse(lipsync).success).toBe(true);
  const visemes = lipsync.visemes ?? [];
  expect(visemes.length).toBeGreaterThan(5);
  expect(visemes.every((cue) => VISEMES.has(cue.viseme) && cue.time <= lipsync.duration)).toBe(true);
  expect(new Set(visemes.filter((cue) => cue.viseme !== 'sil').map((cue) => cue.viseme)).size).toBeGreaterThanOrEqual(3);
  expect(lipsync.mouths.length).toBeGreaterThan(2);
}

describe('visemes sent with speech over WS /ws', () => {
  const fake = useFakeOpenAi();
  const subject = useTestApp({
    startInTest: true,
    listen: true,
    componentRoots: shippedRoots,
    environment: { SKINS_DIR: FIXTURE_SKINS, CORTEX_ENGINE: 'openai', OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'gpt-test', OPENAI_MAX_RETRIES: '0' },
  });
  const sockets = useSockets();

  async function window(): Promise<OpenedSocket> {
    const opened = await openSocket(`ws://127.0.0.1:${subject.ports.web}/ws`);
    sockets.push(opened);
    opened.socket.send(JSON.stringify({ type: 'hello', has_assets: [] }));
    await opened.next(ofType('chat_history'));
    return opened;
  }

  async function spokenReply(a: OpenedSocket): Promise<{ play: Message; audio: Message }> {
    fake.script({
      kind: 'reply',
      text: '{"actions": [{"type": "tts_speak", "payload": {"text": "Hello there, how are you today?"}}, {"type": "message_webui", "payload": {"text": "Hello there!"}}]}',
    });
    a.socket.send(JSON.stringify({ type: 'chat', text: 'Say hello', id: 'v' }));
    const play = (await a.next(ofType('tts_play'), 30_000)) as Message;
    const audio = (await a.next((message) => ofType('vrm_audio')(message) && (message as { audio: unknown }).audio !== null)) as Message;
    return { play, audio };
  }

  it("a spoken reply's tts_play carries the local voice's viseme track, and every window's vrm_audio the same one", async () => {
    await subject.start({ environment: { OPENAI_BASE_URL: fake.baseUrl } });
    const [a, b] = [await window(), await window()];
    const { play, audio } = await spokenReply(a);
    const lipsync = play.lipsync as Lipsync;
    expectVisemeTrack(lipsync);
    // "there," ends a clause: the mouth closes in espeak's pause before "how".
    const visemes = lipsync.visemes ?? [];
    expect(visemes.some((cue, index) => index > 0 && cue.viseme === 'sil' && (visemes[index + 1]?.time ?? 0) - cue.time >= 0.1)).toBe(true);
    expect(audio).toMatchObject({ audio: { url: play.url, lipsync_data: lipsync } });
    const other = (await b.next((message) => ofType('vrm_audio')(message) && (message as { audio: unknown }).audio !== null)) as Message;
    expect(other).toMatchObject({ audio: { url: play.url, lipsync_data: lipsync } });
    const state = await subject.app.inject({ method: 'GET', url: '/api/body/state' });
    expect(state.json()).toMatchObject({ audio: { url: play.url, lipsync_data: lipsync } });
  });

  it('estimates visemes from the audio for an engine that gives no timing (http)', async () => {
    const speech = await espeakHttpServer();
    try {
      await subject.start({ environment: { OPENAI_BASE_URL: fake.baseUrl, ACTIVE_VOX_ENGINE: 'http', HTTP_TTS_ENDPOINTS: `${speech.base}/tts` } });
      const { play } = await spokenReply(await window());
      expectVisemeTrack(play.lipsync as Lipsync);
    } finally {
      speech.close();
    }
  });
});
