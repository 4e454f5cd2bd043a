import type { Logger } from 'pino';
import type { BanterAudio } from './injection/index.ts';

export interface BanterEncodingsDependencies {
  /** `prepareBanterAudio`: the WAV to WebM/Opus with the gain, padded for the harbor. */
  encode(request: { wavPath: string; gainDb: number }): Promise<BanterAudio>;
  /** RADIO_HOST_GAIN_DB now. */
  gainDb(): number;
  logger: Logger;
}

interface Encoding {
  gainDb: number;
  audio: Promise<BanterAudio | undefined>;
}

/** A few plans (this song's end and the queue's next), each a template and perhaps a model line. */
const KEPT = 8;

/**
 * Banter encoded for the air as soon as it is spoken: ffmpeg's start alone takes seconds on a loaded
 * machine, longer than a break may begin late, so the break itself only logs in and sends.
 */
export class BanterEncodings {
  private readonly byPath = new Map<string, Encoding>();

  constructor(private readonly deps: BanterEncodingsDependencies) {}

  /** Starts encoding a spoken line at the current gain (once per gain). */
  prepare(wavPath: string): void {
    const gainDb = this.deps.gainDb();
    if (this.byPath.get(wavPath)?.gainDb === gainDb) return;
    const audio = this.deps.encode({ wavPath, gainDb }).catch((error: unknown) => {
      // The break encodes it again itself, and reports the failure if it fails there too.
      this.deps.logger.warn({ err: error, wavPath }, 'banter could not be encoded ahead');
      return undefined;
    });
    this.byPath.delete(wavPath);
    this.byPath.set(wavPath, { gainDb, audio });
    for (const oldest of this.byPath.keys()) {
      if (this.byPath.size <= KEPT) break;
      this.byPath.delete(oldest);
    }
  }

  /** RADIO_HOST_GAIN_DB changed: every kept line is encoded again at the new gain. */
  regain(): void {
    for (const wavPath of [...this.byPath.keys()]) this.prepare(wavPath);
  }

  /** The line's audio at this gain, waiting for an encoding under way; undefined if there is none. */
  async take(wavPath: string, gainDb: number): Promise<BanterAudio | undefined> {
    const encoding = this.byPath.get(wavPath);
    return encoding?.gainDb === gainDb ? await encoding.audio : undefined;
  }

  /** Resolves once every encoding started so far has finished (tests wait on it). */
  async settled(): Promise<void> {
    await Promise.all([...this.byPath.values()].map((encoding) => encoding.audio));
  }

  clear(): void {
    this.byPath.clear();
  }
}
