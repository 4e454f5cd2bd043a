import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Clock } from '../../body/clock.ts';

/** Only files Vox wrote match this, so pointing VOX_OUTPUT_DIR at a shared folder never deletes others. */
const FILE_NAME = /^vox-\d+-[0-9a-f]{16}\.wav$/;
export const TTS_URL_PREFIX = '/tts/';

export interface RetentionPolicy {
  /** Older files are deleted. */
  maxAgeMs: number;
  /** Beyond this count the oldest are deleted. */
  maxFiles: number;
  /** Sweeps run at most this often (a directory listing per sentence would cost the pipeline). */
  sweepIntervalMs: number;
}

/** An hour: well past the playback of any sentence and of a late joiner resuming it. */
export const DEFAULT_RETENTION: RetentionPolicy = { maxAgeMs: 60 * 60 * 1000, maxFiles: 500, sweepIntervalMs: 30_000 };

/** The generated speech files in VOX_OUTPUT_DIR: unique names, served by name, cleaned up by age and count. */
export class SpeechFiles {
  private lastSweep = 0;

  constructor(
    private readonly directory: () => string,
    /** The process's clock: a file's age and the sweep interval are measured on it. */
    private readonly clock: Pick<Clock, 'now'>,
    private readonly retention: RetentionPolicy = DEFAULT_RETENTION,
  ) {}

  async write(wav: Uint8Array): Promise<{ filename: string; path: string; url: string }> {
    const directory = this.directory();
    await mkdir(directory, { recursive: true });
    const filename = `vox-${this.clock.now()}-${randomBytes(8).toString('hex')}.wav`;
    const path = join(directory, filename);
    try {
      await writeFile(path, wav);
    } catch (error) {
      // A file cut short (the disk is full) must never be served as speech.
      await rm(path, { force: true });
      throw error;
    }
    return { filename, path, url: `${TTS_URL_PREFIX}${filename}` };
  }

  /** The path of a generated file, or undefined for any name Vox could not have written (no escape). */
  pathOf(filename: string): string | undefined {
    return FILE_NAME.test(filename) ? resolve(this.directory(), filename) : undefined;
  }

  /** Deletes expired files; a no-op when the last sweep was recent unless forced. */
  async sweep(force = false): Promise<number> {
    const now = this.clock.now();
    if (!force && now - this.lastSweep < this.retention.sweepIntervalMs) return 0;
    this.lastSweep = now;
    const directory = this.directory();
    let names: string[];
    try {
      names = (await readdir(directory)).filter((name) => FILE_NAME.test(name));
    } catch {
      return 0;
    }
    const files = await Promise.all(names.map(async (name) => ({ name, mtime: (await stat(join(directory, name)).catch(() => undefined))?.mtimeMs ?? 0 })));
    files.sort((a, b) => b.mtime - a.mtime);
    const doomed = files.filter((file, index) => index >= this.retention.maxFiles || now - file.mtime > this.retention.maxAgeMs);
    await Promise.all(doomed.map((file) => rm(join(directory, file.name), { force: true })));
    return doomed.length;
  }
}
