import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ffmpeg from 'fluent-ffmpeg';
import { WebcastError } from './errors.ts';

/** What the web broadcaster sends: the WebM container's bytes and how long they play. */
export interface EncodedBanter {
  bytes: Buffer;
  durationS: number;
}

/**
 * Opus at a constant bitrate: the container's bytes then grow in step with the audio's time, which is
 * what lets the sender pace them by byte count.
 */
const OPUS = { codec: 'libopus', bitrate: '64k', frequency: 48000, channels: 1 } as const;
const OPUS_BYTES_PER_S = 64_000 / 8;
/**
 * Liquidsoap loses the last 40-80 ms of a session (its frames are 40 ms), so every clip ends with this
 * much silence of its own and the words are never cut.
 */
const TAIL_GUARD_S = 0.25;

/** `HH:MM:SS.cc` as ffmpeg prints an input's duration; undefined for `N/A`. */
function parseTimemark(timemark: string | undefined): number | undefined {
  const match = /^(\d+):(\d{2}):(\d{2}(?:\.\d+)?)$/.exec(timemark ?? '');
  if (!match) return undefined;
  return Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]);
}

/**
 * Encodes the Vox WAV (or any audio ffmpeg reads) to WebM/Opus with `volume=<gainDb>dB`, a tail guard
 * of silence, and silence up to at least `minDurationS`: a harbor plays nothing until its buffer is full, so a shorter clip
 * would wait there and play at the start of the next session.
 */
export async function encodeBanter(input: string, gainDb: number, minDurationS: number, signal?: AbortSignal): Promise<EncodedBanter> {
  signal?.throwIfAborted();
  // A file, not a pipe: fluent-ffmpeg fails a piped output whose stream closes 20 ms before ffmpeg exits,
  // which a loaded machine does.
  const folder = await mkdtemp(join(tmpdir(), 'anima-banter-'));
  const output = join(folder, 'banter.webm');
  try {
    const inputDurationS = await runFfmpeg(input, output, gainDb, minDurationS, signal);
    const bytes = await readFile(output);
    // An input without a known duration (a streamed WAV): the constant bitrate tells it closely enough.
    const durationS = Math.max(minDurationS, inputDurationS === undefined ? bytes.length / OPUS_BYTES_PER_S : inputDurationS + TAIL_GUARD_S);
    return { bytes, durationS };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Runs the encoding; resolves with the input's duration as ffmpeg read it. */
function runFfmpeg(input: string, output: string, gainDb: number, minDurationS: number, signal?: AbortSignal): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    let inputDurationS: number | undefined;
    const command = ffmpeg(input)
      .noVideo()
      .audioFilters([`volume=${gainDb}dB`, `apad=pad_dur=${TAIL_GUARD_S}`, `apad=whole_dur=${minDurationS}`])
      .audioCodec(OPUS.codec)
      .audioBitrate(OPUS.bitrate)
      .audioChannels(OPUS.channels)
      .audioFrequency(OPUS.frequency)
      .outputOptions(['-vbr', 'off'])
      .format('webm')
      .on('codecData', (data: { duration?: string }) => {
        inputDurationS = parseTimemark(data.duration);
      })
      .on('error', (error: Error) => {
        signal?.removeEventListener('abort', abort);
        if (signal?.aborted) reject(signal.reason);
        else reject(new WebcastError('encode', `ffmpeg could not encode the banter ${input} to WebM/Opus: ${error.message.split('\n')[0]}`, { cause: error }));
      })
      .on('end', () => {
        signal?.removeEventListener('abort', abort);
        resolve(inputDurationS);
      });
    const abort = () => command.kill('SIGKILL');
    signal?.addEventListener('abort', abort, { once: true });
    command.save(output);
  });
}
