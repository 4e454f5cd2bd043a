import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';

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
 * Stores an uploaded file for a file-typed variable under `<backups>/config_files/<KEY>/` and returns
 * its path relative to the working directory. A truncated (over-limit) upload leaves nothing on disk.
 */
export async function storeConfigFile(
  upload: { file: Readable & { truncated?: boolean }; filename: string },
  key: string,
  paths: { backups: string; cwd: string },
): Promise<{ path: string; size: number }> {
  const folder = join(paths.backups, 'config_files', key);
  await mkdir(folder, { recursive: true });
  const target = join(folder, safeFileName(upload.filename));
  const { size } = await writeUpload(upload.file, target);
  return { path: relative(paths.cwd, target), size };
}

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

/** Opens the file a variable names, or undefined when it is unset or gone. */
export async function openConfigFile(value: string, cwd: string): Promise<{ stream: Readable; name: string; size: number } | undefined> {
  if (value.trim() === '') return undefined;
  const path = resolve(cwd, value);
  try {
    const info = await stat(path);
    if (!info.isFile()) return undefined;
    return { stream: createReadStream(path), name: basename(path), size: info.size };
  } catch {
    return undefined;
  }
}
