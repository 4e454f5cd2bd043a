import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { VOICE_UNHEARD } from '../../../src/components/contract.ts';
import { shippedRoots } from '../../helpers/component-roots.ts';
import { type DiscordLikeServer, type DiscordUser, type RestRequest, startDiscordLikeServer } from '../../helpers/discord-like-server.ts';
import { type FakeOpenAi, startFakeOpenAi, lastPrompt } from '../../helpers/openai-server.ts';
import { useTestApp } from '../../helpers/services.ts';
import { listeningFor, recordedVoiceNote } from '../../helpers/voice-notes.ts';

/** The IS_VOICE_MESSAGE flag Fluxer keeps from Discord (the client's record button). */
const IS_VOICE_MESSAGE = 1 << 13;

describe('voice messages on Fluxer, against a local Discord-like server', () => {
  let server: DiscordLikeServer;
  let model: FakeOpenAi;
  let sam: DiscordUser;
  beforeEach(async () => {
    server = await startDiscordLikeServer({ botName: 'Anima' });
    model = await startFakeOpenAi();
    sam = server.user('Sam');
  });
  afterEach(async () => {
    await server.close();
    await model.close();
  });
  const test = useTestApp({ startInTest: true, componentRoots: { interface: shippedRoots.interface, cortex: shippedRoots.cortex } });

  const launch = async (environment: Record<string, string>) => {
    await test.start({
      environment: {
        CORTEX_ENGINE: 'openai',
        OPENAI_BASE_URL: model.baseUrl,
        FLUXER_API_BASE_URL: server.apiBaseUrl,
        FLUXER_API_VERSION: '1',
        FLUXER_BOT_TOKEN: server.token,
        ...environment,
      },
      logDestination: new PassThrough(),
    });
    await vi.waitFor(
      async () => {
        const response = await test.app.inject({ method: 'GET', url: '/api/components' });
        const fluxer = (response.json().interfaces as Array<{ name: string; connection?: { state: string } }>).find((entry) => entry.name === 'fluxer');
        expect(fluxer?.connection?.state).toBe('connected');
      },
      { timeout: 10_000, interval: 20 },
    );
  };
  const isPost = (request: RestRequest) => request.method === 'POST' && /^\/channels\/\d+\/messages$/.test(request.path) && request.status === 200;
  const history = async (path: string) => (await test.harness.services.history.chat.load(path)).map((item) => [item.sender_id, item.text]);

  it('hears a voice message through Auris and answers with the spoken reply uploaded as an audio file', async () => {
    await launch({
      ACTIVE_VOX_ENGINE: 'local',
      ...listeningFor(['good morning', 'what time is it']),
    });
    const bytes = await recordedVoiceNote(test.harness.services, 'Good morning!');
    const dm = server.dm(sam);
    model.script({ kind: 'reply', text: 'Good morning to you.' });
    server.say(dm, sam, '', { attachments: [{ filename: 'voice-message.ogg', bytes, contentType: 'audio/ogg' }], flags: IS_VOICE_MESSAGE });

    const answer = await server.waitFor((request) => isPost(request) && request.files.length === 1);
    expect(answer.path).toBe(`/channels/${dm.id}/messages`);
    expect(lastPrompt(model)).toBe('Sam: good morning');
    expect(answer.files[0]?.filename).toMatch(/\.wav$/);
    expect(answer.files[0]?.contentType).toBe('audio/wav');
    expect(answer.files[0]?.bytes.subarray(0, 4).toString()).toBe('RIFF');
    // Spoken, not also written.
    expect(server.requests.filter((request) => isPost(request) && request.files.length === 0)).toEqual([]);
    await expect
      .poll(() => history(`fluxer/dm/${dm.id}`))
      .toEqual([
        [sam.id, 'good morning'],
        ['self', 'Good morning to you.'],
      ]);
    // Speech synthesis, recognition and an encoding: seconds on a busy machine.
  }, 90_000);

  it('with speech-to-text off, tells the model a voice message came that it cannot hear, and answers in writing', async () => {
    await launch({ ACTIVE_VOX_ENGINE: 'disabled' });
    const dm = server.dm(sam);
    model.script({ kind: 'reply', text: 'I cannot listen, sorry.' }, { kind: 'reply', text: 'Nice song.' });
    // An audio file sent alone is a recording, even without the record button's flag.
    server.say(dm, sam, '', { attachments: [{ filename: 'recording.ogg', bytes: Buffer.from('OggS'), contentType: 'audio/ogg' }] });
    const answer = await server.waitFor((request) => isPost(request) && request.json?.content === 'I cannot listen, sorry.');
    expect(answer.files).toEqual([]);
    expect(lastPrompt(model)).toBe(`Sam: ${VOICE_UNHEARD}`);

    // An audio file with words is a file the model is told about, not a voice message.
    const song = server.say(dm, sam, 'my song', { attachments: [{ filename: 'song.mp3', bytes: Buffer.from('ID3'), contentType: 'audio/mpeg' }] });
    await server.waitFor((request) => isPost(request) && request.json?.content === 'Nice song.');
    expect(model.requests.at(-1)?.body.messages).toContainEqual({ role: 'user', content: `Sam: my song\n[file: song.mp3] ${song.attachments[0]?.url}` });
  });
});
