import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
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

/** Where the files of file variables live; the configuration API reads and writes nothing outside it. */
export function configFilesFolder(backups: string): string {
  return join(backups, 'config_files');
}

/** The folder as an error message names it: relative to the working directory when it is inside it. */
export function shownFolder(paths: { backups: string; cwd: string }): string {
  const folder = relative(paths.cwd, configFilesFolder(paths.backups));
  return folder.split(sep)[0] === '..' || isAbsolute(folder) ? configFilesFolder(paths.backups) : folder;
}

/**
 * The real path of the regular file `value` names (relative to the working directory) when it lies inside
 * the configuration-files folder once every symlink is followed; undefined otherwise, or when it is missing.
 */
export async function configFileInside(value: string, paths: { backups: string; cwd: string }): Promise<{ path: string; size: number } | undefined> {
  if (value.trim() === '') return undefined;
  try {
    const [folder, file] = await Promise.all([realpath(configFilesFolder(paths.backups)), realpath(resolve(paths.cwd, value))]);
    const inside = relative(folder, file);
    if (inside === '' || inside.split(sep)[0] === '..' || isAbsolute(inside)) return undefined;
    const info = await stat(file);
    return info.isFile() ? { path: file, size: info.size } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Stores an uploaded file for a file-typed variable under `<backups>/config_files/<KEY>/` and returns
 * its path relative to the working directory. A truncated (over-limit) upload leaves nothing on disk.
 */
export async function storeConfigFile(
  upload: { file: Readable & { truncated?: boolean }; filename: string },
  key: string,
  paths: { backups: string; cwd: string },
): Promise<{ path: string; size: number }> {
  const folder = join(configFilesFolder(paths.backups), key);
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

/**
 * Opens the file a variable names, or undefined when it is unset, gone or outside the configuration-files
 * folder: a value from .env or the environment may point anywhere for the server's own use (a TLS
 * certificate), but only files of that folder are ever sent to a client.
 */
export async function openConfigFile(
  value: string,
  paths: { backups: string; cwd: string },
): Promise<{ stream: Readable; name: string; size: number } | undefined> {
  const file = await configFileInside(value, paths);
  return file && { stream: createReadStream(file.path), name: basename(file.path), size: file.size };
}
