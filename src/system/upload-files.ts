/**
 * Writing an uploaded file to disk, shared by every upload (animations, VRM models, the files of file
 * variables). It lives outside http/ because the body and the configuration name files with it too.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** A client-supplied file name reduced to a safe single path segment. */
export function safeFileName(name: string): string {
  const cleaned = basename(name.replace(/\\/g, '/'))
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^\.+/, '')
    .slice(0, 100);
  return cleaned === '' ? 'file' : cleaned;
}

export class FileTooLargeError extends Error {}

/**
 * Streams an uploaded file to `target` (whose folder exists) through a hidden partial file beside it,
 * so a truncated (over-limit) or failed upload leaves nothing on disk and `target` never half exists.
 */
export async function writeUpload(file: Readable & { truncated?: boolean }, target: string): Promise<{ size: number }> {
  const partial = join(dirname(target), `.${randomUUID()}.partial`);
  try {
    await pipeline(file, createWriteStream(partial));
    if (file.truncated) throw new FileTooLargeError('file exceeds APP_UPLOAD_MAX_BYTES');
    await rename(partial, target);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return { size: (await stat(target)).size };
}

/**
 * Empties a staging folder at start: whatever is staged there belongs to an upload the last process
 * never finished (it was stopped or killed mid-upload). Returns how many entries were removed.
 */
export async function sweepStagingFolder(folder: string): Promise<number> {
  const names = await readdir(folder).catch(() => []);
  await Promise.all(names.map((name) => rm(join(folder, name), { recursive: true, force: true })));
  return names.length;
}
