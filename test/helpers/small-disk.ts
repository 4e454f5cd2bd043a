import { execFile } from 'node:child_process';
import { mkdir, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const FILLER = '.filler';

export interface SmallDisk {
  path: string;
  /** Writes a filler file until the file system answers ENOSPC. */
  fill(): Promise<void>;
  /** Removes the filler: space returns. */
  free(): Promise<void>;
  unmount(): Promise<void>;
}

/**
 * A tmpfs of `sizeBytes` mounted at `path` (created if missing), so a test can fill a real file system.
 * Needs root (CAP_SYS_ADMIN); `canMountTmpfs` says whether this machine allows it.
 */
export async function mountSmallDisk(path: string, sizeBytes: number): Promise<SmallDisk> {
  await mkdir(path, { recursive: true });
  await run('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes}`, 'tmpfs', path]);
  const filler = join(path, FILLER);
  return {
    path,
    async fill() {
      const handle = await open(filler, 'a');
      try {
        // Smaller and smaller writes, so not even a page is left.
        for (const size of [1024 * 1024, 4096, 1]) {
          const chunk = Buffer.alloc(size, 1);
          try {
            for (;;) await handle.write(chunk);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          }
        }
      } finally {
        await handle.close();
      }
    },
    free: () => rm(filler, { force: true }),
    async unmount() {
      await run('umount', ['-l', path]);
    },
  };
}

/** True when this process may mount a tmpfs (root in a namespace that allows it). */
export async function canMountTmpfs(probe: string): Promise<boolean> {
  try {
    const disk = await mountSmallDisk(probe, 64 * 1024);
    await disk.unmount();
    await rm(probe, { recursive: true, force: true });
    return true;
  } catch {
    return false;
  }
}
