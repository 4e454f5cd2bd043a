import { fileURLToPath } from 'node:url';
import ffmpeg from 'fluent-ffmpeg';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineInterface, type VoicePort } from '../../src/components/contract.ts';
import { words } from '../helpers/audio.ts';
import { createTestServices, type TestServices } from '../helpers/services.ts';
import { listeningFor } from '../helpers/voice-notes.ts';

const listening = listeningFor(['good morning', 'what time is it']);
const MediaSchema = z.object({ file_url: z.string(), interface_path: z.string() });

/** A chat platform as the voice service sees it: it keeps its `voice` port and records the media it is sent. */
async function voiceInterface(harness: TestServices) {
  const sent: z.infer<typeof MediaSchema>[] = [];
  let port: VoicePort | undefined;
  const definition = defineInterface({
    name: 'voicetest',
    interfaceId: 'voicetest',
    needs: ['voice'],
    create: ({ services }) => {
      port = services.voice;
      return {
        actions: {
          message_voicetest: { schema: z.object({ text: z.string(), interface_path: z.string() }), brief: 'Say something.' },
          send_media_voicetest: { schema: MediaSchema, brief: 'Send a file.' },
        },
        handleAction: (type, payload) => {
          if (type === 'send_media_voicetest') sent.push(MediaSchema.parse(payload));
        },
      };
    },
  });
  await harness.services.components.loadAll([definition], []);
  if (!port) throw new Error('the interface was not created');
  return { voice: port, sent };
}

function probe(path: string): Promise<ffmpeg.FfprobeData> {
  return new Promise((resolve, reject) => ffmpeg.ffprobe(path, (error, data) => (error ? reject(error) : resolve(data))));
}

describe('the voice service of chat platforms', () => {
  let harness: TestServices;
  afterEach(async () => harness?.close());

  it('speaks a reply into the conversation through the send_media action, as a voice note the platform plays, and hears it back', async () => {
    harness = await createTestServices({ environment: listening });
    const { voice, sent } = await voiceInterface(harness);
    expect([voice.canSpeak, voice.canListen]).toEqual([true, true]);

    expect(await voice.speak('voicetest/room-1', 'Good morning!')).toBe(true);
    expect(sent).toEqual([{ file_url: expect.stringMatching(/^file:\/\/.*\.wav$/), interface_path: 'voicetest/room-1' }]);
    const wav = fileURLToPath(sent[0]?.file_url ?? '');

    const note = await voice.voiceNote(wav);
    const info = await probe(note.path);
    expect(info.format.format_name).toBe('ogg');
    expect(info.streams[0]).toMatchObject({ codec_name: 'opus', channels: 1 });
    expect(note).toMatchObject({ mimeType: 'audio/ogg', durationS: expect.closeTo(Number((await probe(wav)).format.duration), 0) });

    expect(words(await voice.transcribe(note.path, note.mimeType))).toEqual(words('good morning'));
    await note.dispose();
    await expect(probe(note.path)).rejects.toThrow();
  });

  it('says clearly that it cannot listen while speech-to-text is off, and refuses a file that is not audio', async () => {
    harness = await createTestServices();
    const { voice } = await voiceInterface(harness);
    expect(voice.canListen).toBe(false);
    await expect(voice.transcribe(`${harness.cwd}/missing.ogg`)).rejects.toThrow(/ACTIVE_AURIS_ENGINE/);
    await expect(voice.voiceNote(`${harness.cwd}/missing.wav`)).rejects.toThrow(/ffmpeg could not make a voice note/);
  });
});
