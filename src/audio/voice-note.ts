import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ffmpeg from 'fluent-ffmpeg';
import type { VoiceNote } from '../components/contract.ts';

/** Opus at 48 kHz mono: what Telegram shows as a voice message (with a waveform) and Matrix clients play. */
const OPUS = { frequency: 48000, channels: 1, bitrate: '32k' } as const;

function probeDuration(path: string): Promise<number> {
  return new Promise((resolve) => {
    ffmpeg.ffprobe(path, (error, data) => resolve(error ? 0 : Number(data.format.duration ?? 0)));
  });
}

/** Re-encodes any audio ffmpeg reads as an OGG/Opus voice note in a folder of its own. */
export async function encodeVoiceNote(input: string): Promise<VoiceNote> {
  const directory = await mkdtemp(join(tmpdir(), 'anima-voice-'));
  const path = join(directory, 'voice.ogg');
  const dispose = () => rm(directory, { recursive: true, force: true });
  try {
    await new Promise<void>((resolve, reject) => {
      ffmpeg(input)
        .noVideo()
        .audioCodec('libopus')
        .audioChannels(OPUS.channels)
        .audioFrequency(OPUS.frequency)
        .audioBitrate(OPUS.bitrate)
        .format('ogg')
        .on('end', () => resolve())
        .on('error', (error: Error) => reject(new Error(`ffmpeg could not make a voice note: ${error.message.split('\n')[0]}`)))
        .save(path);
    });
    return { path, mimeType: 'audio/ogg', durationS: await probeDuration(path), dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}
