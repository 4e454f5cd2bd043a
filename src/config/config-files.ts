/**
 * The files of file-typed variables (the TLS certificate and key): their folder under the backups, the
 * check that a value names a file inside it, and storing and opening them for the configuration API.
 */
import { createPrivateKey, randomUUID, X509Certificate } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { safeFileName, writeUpload } from '../system/upload-files.ts';

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

/** An uploaded file whose content is not what its variable holds (a certificate that does not parse). */
export class UnexpectedFileContentError extends Error {}

/**
 * What each file variable must hold, checked by parsing it as the server will; a file variable without an
 * entry takes no upload. A file that does not parse would only fail at the next start.
 */
const FILE_CONTENTS: Readonly<Record<string, { what: string; parse: (bytes: Buffer) => unknown }>> = {
  APP_WEBUI_TLS_CERT: { what: 'a PEM or DER X.509 certificate', parse: (bytes) => new X509Certificate(bytes) },
  APP_WEBUI_TLS_KEY: { what: 'an unencrypted PEM private key', parse: (bytes) => createPrivateKey(bytes) },
};

async function checkContent(key: string, file: string): Promise<void> {
  const expected = FILE_CONTENTS[key];
  if (!expected) throw new UnexpectedFileContentError(`${key} takes no uploaded file`);
  try {
    expected.parse(await readFile(file));
  } catch {
    throw new UnexpectedFileContentError(`The file is not ${expected.what}, which ${key} needs`);
  }
}

/**
 * Stores an uploaded file for a file-typed variable under `<backups>/config_files/<KEY>/` and returns
 * its path relative to the working directory. The file is staged and parsed first: a truncated
 * (over-limit) upload, or one that is not what the variable holds, leaves the folder as it was.
 */
export async function storeConfigFile(
  upload: { file: Readable & { truncated?: boolean }; filename: string },
  key: string,
  paths: { backups: string; cwd: string },
): Promise<{ path: string; size: number }> {
  const folder = join(configFilesFolder(paths.backups), key);
  await mkdir(folder, { recursive: true });
  const staged = join(folder, `.${randomUUID()}.upload`);
  const { size } = await writeUpload(upload.file, staged);
  try {
    await checkContent(key, staged);
  } catch (error) {
    await rm(staged, { force: true });
    throw error;
  }
  const target = join(folder, safeFileName(upload.filename));
  await rename(staged, target);
  return { path: relative(paths.cwd, target), size };
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
