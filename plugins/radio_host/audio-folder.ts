import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, readdir, realpath, rename, rm, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, resolve, sep } from 'node:path';

/** Banter files the radio host wrote; only these are ever pruned, and only files in the folder are served. */
const FILE_NAME = /^banter-\d+-[0-9a-f]{12}\.(wav|webm)$/;
/** Enough for every break the activity list (50 entries) can still link to. */
const KEEP_FILES = 60;

const CONTENT_TYPES: Readonly<Record<string, string>> = { '.wav': 'audio/wav', '.webm': 'audio/webm' };

export type Lookup = { found: true; path: string; contentType: string } | { found: false; reason: 'forbidden' | 'missing' };

/** The radio audio folder: banter WAV files moved here from Vox's output, served by `GET /api/radio/audio`. */
export class RadioAudioFolder {
  constructor(readonly directory: () => string) {}

  /** Moves a Vox file in under a name of its own; returns the new path. */
  async adopt(source: string, now: number): Promise<string> {
    const directory = this.directory();
    await mkdir(directory, { recursive: true });
    const target = join(directory, `banter-${now}-${randomBytes(6).toString('hex')}${extname(source) || '.wav'}`);
    await rename(source, target).catch(async () => {
      // Another file system (VOX_OUTPUT_DIR elsewhere): copy, then remove the original.
      await copyFile(source, target);
      await rm(source, { force: true });
    });
    void this.prune();
    return target;
  }

  /**
   * What `?path=` may serve: an absolute path whose real location is inside the folder (a symbolic link
   * out of it is refused like any other path), and that exists.
   */
  async lookup(requested: string): Promise<Lookup> {
    if (!isAbsolute(requested)) return { found: false, reason: 'forbidden' };
    const root = await realpath(this.directory()).catch(() => resolve(this.directory()));
    const candidate = resolve(requested);
    if (!candidate.startsWith(root + sep) && !candidate.startsWith(resolve(this.directory()) + sep)) return { found: false, reason: 'forbidden' };
    const real = await realpath(candidate).catch(() => undefined);
    if (!real) return { found: false, reason: 'missing' };
    if (!real.startsWith(root + sep)) return { found: false, reason: 'forbidden' };
    const contentType = CONTENT_TYPES[extname(real).toLowerCase()];
    if (!contentType || !(await stat(real)).isFile()) return { found: false, reason: 'missing' };
    return { found: true, path: real, contentType };
  }

  /** Removes the oldest banter files beyond what the activity list can show. */
  async prune(): Promise<void> {
    const directory = this.directory();
    const names = (await readdir(directory).catch(() => [] as string[])).filter((name) => FILE_NAME.test(name));
    // The time in the name orders them; ties do not matter at this count.
    const doomed = names.sort((a, b) => Number(b.split('-')[1]) - Number(a.split('-')[1])).slice(KEEP_FILES);
    await Promise.all(doomed.map((name) => rm(join(directory, name), { force: true })));
  }
}
