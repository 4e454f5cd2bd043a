import type { Dirent } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { Logger } from '../logging.ts';
import { parseDescriptor, type Descriptor } from './descriptor.ts';

/** The fallback skin, always searched after the active one; it ships with the project. */
export const FALLBACK_SKIN = 'default';
/** Holds temporary uploads; never a skin of its own. */
export const TEMP_FOLDER = 'temp';
const ANIMATION_EXTENSIONS = ['.fbx', '.vrma'];

/** Reading files only ever warns; a request's logger does as well as the body's. */
export type WarnLogger = Pick<Logger, 'warn'>;

export interface AnimationFile {
  state: string;
  /** The file name, case-sensitive, for example `Happy Idle.fbx`. */
  name: string;
  path: string;
  /** The URL path clients fetch it from. */
  url: string;
  descriptor: Descriptor | null;
}

/**
 * One path segment a client may name (skin, state, file): never empty, `.` or `..`, and free of
 * separators and NUL, so joining it to a folder cannot leave that folder.
 */
export function isSafeSegment(segment: string): boolean {
  return segment.length > 0 && segment.length <= 255 && segment !== '.' && segment !== '..' && !/[/\\\0]/.test(segment);
}

export function isAnimationFile(name: string): boolean {
  return ANIMATION_EXTENSIONS.some((extension) => name.endsWith(extension));
}

/** Code-point order: the spec's "alphabetical" with case-sensitive names, the same on every machine. */
export function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export async function readEntries(folder: string): Promise<Dirent[]> {
  try {
    return await readdir(folder, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** Skin folders under the skins directory, in name order. */
export async function listSkins(skinsDir: string): Promise<string[]> {
  const entries = await readEntries(skinsDir);
  return entries
    .filter((entry) => entry.isDirectory() && entry.name !== TEMP_FOLDER && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort(byName);
}

/** A skin's model: the `*.vrm` file at its root, the first by name when there are several. */
export async function findSkinModel(skinsDir: string, skin: string): Promise<string | undefined> {
  const entries = await readEntries(join(skinsDir, skin));
  const models = entries.filter((entry) => entry.isFile() && entry.name.endsWith('.vrm')).map((entry) => entry.name);
  return models.sort(byName)[0];
}

/** The URL of a file under the skins directory: `/skins/<segments...>`, each segment encoded. */
export function skinUrl(skinsDir: string, path: string): string | undefined {
  const rel = relative(skinsDir, path);
  if (rel === '' || rel.startsWith('..') || rel.includes(`..${sep}`)) return undefined;
  return `/skins/${rel.split(sep).map(encodeURIComponent).join('/')}`;
}

/** Files outside the skins directory (temporary search paths) are served through `/animations/<state>/<file>`. */
export function animationUrl(skinsDir: string, state: string, name: string, path: string): string {
  return skinUrl(skinsDir, path) ?? `/animations/${encodeURIComponent(state)}/${encodeURIComponent(name)}`;
}

export async function readDescriptorFile(path: string, logger: WarnLogger): Promise<Descriptor | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return null;
  }
  const reading = parseDescriptor(text);
  if (reading.ok) return reading.descriptor;
  logger.warn({ file: path, reason: reading.reason }, 'ignoring a broken animation descriptor; defaults apply');
  return null;
}

/** The animation files of `<root>/animations/<state>/` with their descriptors, in name order. */
export async function readStateFolder(root: string, state: string, skinsDir: string, logger: WarnLogger): Promise<AnimationFile[]> {
  const folder = join(root, 'animations', state);
  const entries = await readEntries(folder);
  const names = new Set(entries.filter((entry) => entry.isFile()).map((entry) => entry.name));
  const files = [...names].filter(isAnimationFile).sort(byName);
  return Promise.all(
    files.map(async (name) => {
      const path = join(folder, name);
      const descriptor = names.has(`${name}.json`) ? await readDescriptorFile(`${path}.json`, logger) : null;
      return { state, name, path, url: animationUrl(skinsDir, state, name, path), descriptor };
    }),
  );
}

/** State folder names under `<root>/animations/`. */
export async function listStateFolders(root: string): Promise<string[]> {
  const entries = await readEntries(join(root, 'animations'));
  return entries.filter((entry) => entry.isDirectory() && isSafeSegment(entry.name)).map((entry) => entry.name);
}
