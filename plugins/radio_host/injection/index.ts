import { z } from 'zod';
import type { ClockPort } from '../../../src/components/contract.ts';
import { encodeBanter } from './encode.ts';
import { sendPaced } from './pacing.ts';
import { openWebcast } from './webcast-client.ts';

export { WebcastError, type WebcastErrorKind } from './errors.ts';

/** A banter as Vox wrote it, and the gain it goes on air with. */
export interface BanterEncoding {
  /** The Vox WAV (any audio ffmpeg reads). */
  wavPath: string;
  /** RADIO_HOST_GAIN_DB, applied as ffmpeg's `volume=<gainDb>dB`. */
  gainDb: number;
  /** The harbor's buffer in seconds (AzuraCast's default 5); its maximum must exceed it by a second. */
  bufferS?: number;
  signal?: AbortSignal;
}

/** A banter encoded ahead of its break by `prepareBanterAudio`. */
export interface BanterAudio {
  bytes: Buffer;
  durationS: number;
  /** Seconds of audio sent at once: the harbor's buffer and a margin. */
  leadS: number;
}

/** One banter to put on air through the station's web broadcaster. */
export interface BanterInjection extends BanterEncoding {
  /** STATION_WEBDJ_URL. */
  webdjUrl: string;
  username: string;
  password: string;
  metadata?: { title: string; artist: string };
  /**
   * The same banter encoded ahead (then wavPath, gainDb and bufferS are not read again): ffmpeg's start
   * alone can take most of the 500 ms a break may start late, so the station prepares while the song plays.
   */
  audio?: BanterAudio;
  /**
   * When given, the harbor gets its buffer less PRIME_SHORT_S while this is pending: logged in and mostly
   * buffered, but not yet playing (a harbor plays, and AzuraCast skips the song on air, only once it holds
   * more than its buffer). The rest follows when it resolves, so the break begins within a small top-up of it.
   */
  goLive?: Promise<void>;
}

export interface InjectionResult {
  sentBytes: number;
  /** How long the banter plays on air, silence padding included. */
  durationS: number;
}

const EncodingSchema = z.object({
  wavPath: z.string().min(1),
  gainDb: z.number().min(-60).max(30),
  bufferS: z.number().positive().max(60).default(5),
});
const LoginSchema = z.object({
  webdjUrl: z.string().regex(/^wss?:\/\//, 'a ws:// or wss:// URL'),
  username: z.string(),
  password: z.string(),
});

/**
 * A harbor starts playing only once it holds more than its buffer, so the clip is padded to, and sent
 * ahead by, the buffer plus this margin (at exactly the buffer it waits for the next session).
 */
const START_MARGIN_S = 0.5;
/** How far below the harbor's buffer a primed injection stays until it goes live (Opus frames are 20 ms). */
export const PRIME_SHORT_S = 1;

/** Encodes a banter for the harbor now, so the break itself only has to log in and send. */
export async function prepareBanterAudio(request: BanterEncoding): Promise<BanterAudio> {
  const { wavPath, gainDb, bufferS } = EncodingSchema.parse(request);
  const leadS = bufferS + START_MARGIN_S;
  return { ...(await encodeBanter(wavPath, gainDb, leadS, request.signal)), leadS };
}

/**
 * With `goLive`, sends what keeps the harbor just short of playing and waits for it; returns the rest, to
 * be paced from then on (constant bitrate: bytes follow time).
 */
async function primed(banter: BanterAudio, goLive: Promise<void> | undefined, send: (chunk: Uint8Array) => void, signal?: AbortSignal): Promise<BanterAudio> {
  if (!goLive) return banter;
  const { bytes, durationS, leadS } = banter;
  const primeS = Math.max(0, Math.min(durationS, leadS - START_MARGIN_S - PRIME_SHORT_S));
  const head = Math.floor((bytes.length * primeS) / durationS);
  send(bytes.subarray(0, head));
  await new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    goLive.then(resolve, reject);
  });
  return { bytes: bytes.subarray(head), durationS: durationS - primeS, leadS: leadS - primeS };
}

/**
 * Puts a banter on air: encodes the WAV to WebM/Opus with the gain (unless prepared) while logging in to
 * the web broadcaster, sends the buffer's worth at once and the rest in real time, and closes right after
 * the last byte. Rejects with a WebcastError (`auth`, `busy`, `connect`, `encode`), or the abort reason.
 * `clock` (the host's) paces the sending: the wall clock on air, since the harbor plays in real time; a
 * test without a real harbor drives it by hand.
 */
export async function injectBanter(request: BanterInjection, clock: ClockPort): Promise<InjectionResult> {
  const { webdjUrl, username, password } = LoginSchema.parse(request);
  const { metadata, signal, audio } = request;
  signal?.throwIfAborted();
  // A failed encoding must not leave a broadcaster logged in (and the reverse): the first failure stops
  // the other half, and is the one reported.
  const halt = new AbortController();
  const stop = () => halt.abort(signal?.reason);
  signal?.addEventListener('abort', stop, { once: true });
  let firstFailure: unknown;
  const halting = (error: unknown): never => {
    firstFailure ??= error;
    halt.abort(new Error('the other half of the injection failed'));
    throw error;
  };
  const [encoded, opened] = await Promise.allSettled([
    audio ?? prepareBanterAudio({ ...request, signal: halt.signal }).catch(halting),
    openWebcast({ url: webdjUrl, username, password, mime: 'audio/webm;codecs=opus', metadata }, clock, halt.signal).catch(halting),
  ]);
  const session = opened.status === 'fulfilled' ? opened.value : undefined;
  try {
    if (encoded.status === 'rejected' || !session) throw firstFailure;
    const banter = encoded.value;
    const rest = await primed(banter, request.goLive, session.send, signal);
    await sendPaced(rest.bytes, rest, session.send, clock, signal);
    await session.finish();
    return { sentBytes: banter.bytes.length, durationS: banter.durationS };
  } catch (error) {
    session?.abort();
    throw error;
  } finally {
    signal?.removeEventListener('abort', stop);
  }
}
