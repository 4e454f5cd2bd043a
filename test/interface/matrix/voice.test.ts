import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ffmpeg from 'fluent-ffmpeg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeVoiceNote } from '../../../src/audio/voice-note.ts';
import { record } from '../../fixtures/components/record.ts';
import { words } from '../../helpers/audio.ts';
import { matrixConnection, startAnimaOnMatrix, startMatrixHomeserver, type MatrixHomeserver } from '../../helpers/matrix-homeserver.ts';
import type { TestServices } from '../../helpers/services.ts';

const listening = { ACTIVE_AURIS_ENGINE: 'pocketsphinx', AURIS_ENGINE_SETTINGS: JSON.stringify({ phrases: ['good morning', 'what time is it'] }) };

function probe(path: string): Promise<ffmpeg.FfprobeData> {
  return new Promise((resolve, reject) => ffmpeg.ffprobe(path, (error, data) => (error ? reject(error) : resolve(data))));
}

/** Speech is made and heard on the machine's two cores, shared with the other suites: slow when they run too. */
const SPEECH_MS = 50_000;

describe('voice messages on matrix', { timeout: SPEECH_MS + 10_000 }, () => {
  let server: MatrixHomeserver;
  let anima: TestServices;
  let bot: string;
  let alice: string;
  let roomId: string;
  let scratch: string;

  beforeEach(async () => {
    record.reset();
    scratch = await mkdtemp(join(tmpdir(), 'anima-matrix-voice-'));
    server = await startMatrixHomeserver();
    bot = server.registerUser('anima');
    alice = server.registerUser('alice');
    anima = await startAnimaOnMatrix(server, { MATRIX_USER_ID: bot, MATRIX_ACCESS_TOKEN: server.issueToken(bot), ...listening });
    await matrixConnection(anima, 'connected');
    roomId = server.createRoom(alice);
    server.invite(roomId, alice, bot);
    await server.until(() => (server.membership(roomId, bot) === 'join' ? true : undefined), 'the join');
  });
  afterEach(async () => {
    await anima?.close();
    await server.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it('hears a voice message: downloaded, transcribed by Auris, and answered with a voice message', async () => {
    const spoken = await anima.services.audio.vox.speak({ text: 'Good morning', interfacePath: 'test/1' });
    const note = await encodeVoiceNote(join(anima.cwd, 'tmp_tts', spoken.filename ?? ''));
    const url = server.upload(await readFile(note.path), 'audio/ogg', 'voice.ogg');
    await note.dispose();
    const at = server.streamPosition;
    server.send(roomId, alice, {
      msgtype: 'm.audio',
      body: 'Voice message',
      url,
      info: { mimetype: 'audio/ogg', duration: 1200 },
      'org.matrix.msc1767.audio': { duration: 1200 },
      'org.matrix.msc3245.voice': {},
    });
    const reply = await server.nextEvent(roomId, bot, at, undefined, SPEECH_MS);
    expect(reply.content).toMatchObject({ msgtype: 'm.audio', 'org.matrix.msc3245.voice': {} });
    const asked = record.prompts.at(-1)?.at(-1)?.content ?? '';
    expect(asked).toMatch(/^alice: \[voice message\] /);
    expect(words(asked.replace(/^alice: \[voice message\] /, ''))).toEqual(['good', 'morning']);
    // Fetched through the authenticated media endpoint, with the access token.
    expect(server.requests.some((request) => request.path.startsWith('/_matrix/client/v1/media/download/') && request.userId === bot)).toBe(true);
  });

  it('answers with a voice message when the model speaks: a real OGG/Opus file, marked as voice', async () => {
    record.script.push(JSON.stringify({ actions: [{ type: 'tts_speak', payload: { text: 'Good morning!' } }] }));
    const at = server.streamPosition;
    server.send(roomId, alice, { msgtype: 'm.text', body: 'say good morning' });
    const reply = await server.nextEvent(roomId, bot, at, undefined, SPEECH_MS);
    expect(reply.content).toMatchObject({
      msgtype: 'm.audio',
      body: 'Voice message',
      info: { mimetype: 'audio/ogg', size: expect.any(Number), duration: expect.any(Number) },
      'org.matrix.msc3245.voice': {},
    });
    const media = server.download(String(reply.content.url));
    expect(media.contentType).toBe('audio/ogg');
    const file = join(scratch, 'reply.ogg');
    await writeFile(file, media.data);
    const info = await probe(file);
    expect(info.format.format_name).toBe('ogg');
    expect(info.streams[0]).toMatchObject({ codec_name: 'opus', channels: 1 });
    expect((reply.content.info as { duration: number }).duration).toBeGreaterThan(300);
  });
});
