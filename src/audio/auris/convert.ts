import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ffmpeg from 'fluent-ffmpeg';
import { AurisError, type AurisInput } from './contract.ts';

/** Whether ffprobe finds an audio stream; anything it cannot read is "not audio". */
export function hasAudioStream(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    ffmpeg.ffprobe(path, (error, data) => {
      resolve(!error && data.streams.some((stream) => stream.codec_type === 'audio'));
    });
  });
}

export interface ConvertedAudio {
  path: string;
  dispose(): Promise<void>;
}

/** Converts any audio ffmpeg reads into a 16-bit PCM WAV file at the engine's rate and channel count. */
export async function convertForEngine(input: string, target: AurisInput, signal: AbortSignal): Promise<ConvertedAudio> {
  if (!(await hasAudioStream(input))) throw new AurisError('not_audio', 'The file is not audio (ffprobe found no audio stream)');
  const directory = await mkdtemp(join(tmpdir(), 'anima-auris-'));
  const output = join(directory, 'input.wav');
  const dispose = () => rm(directory, { recursive: true, force: true });
  try {
    await new Promise<void>((resolve, reject) => {
      const command = ffmpeg(input)
        .noVideo()
        .audioChannels(target.channels)
        .audioFrequency(target.sampleRate)
        .audioCodec('pcm_s16le')
        .format('wav')
        .on('end', () => resolve())
        .on('error', (error: Error) => reject(new AurisError('not_audio', `ffmpeg could not decode the audio: ${error.message.split('\n')[0]}`)));
      signal.addEventListener('abort', () => command.kill('SIGKILL'), { once: true });
      command.save(output);
    });
    return { path: output, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}
