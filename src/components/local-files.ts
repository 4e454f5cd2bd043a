import { realpath } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folders a chat platform may send files from, named in its refusal (VOX_OUTPUT_DIR, where Vox writes speech). */
export interface AllowedFolders {
  folders: readonly string[];
  /** How the refusal names them, for example `VOX_OUTPUT_DIR`. */
  label: string;
}

const asAllowed = (allowed: string | AllowedFolders): AllowedFolders =>
  typeof allowed === 'string' ? { folders: [allowed], label: 'VOX_OUTPUT_DIR' } : allowed;

const inside = (path: string, folder: string) => path.startsWith(`${folder}${sep}`);

/**
 * A `file://` URL an action may send, only inside the allowed folders (a bare folder string is
 * VOX_OUTPUT_DIR, where Vox writes the speech it hands to `send_media_<id>`): a model told to "send
 * file:///etc/passwd" by someone in a chat must not post the server's files. Undefined for any other URL.
 */
export function localFileOf(url: string, allowed: string | AllowedFolders): string | undefined {
  if (!url.startsWith('file:')) return undefined;
  let path: string;
  try {
    path = resolve(fileURLToPath(url));
  } catch {
    return undefined;
  }
  return asAllowed(allowed).folders.some((folder) => inside(path, resolve(folder))) ? path : undefined;
}

/** The same check on the real paths (a link inside a folder may point out of it); throws when outside. */
export async function realLocalFile(url: string, allowed: string | AllowedFolders): Promise<string> {
  const { folders, label } = asAllowed(allowed);
  const path = localFileOf(url, allowed);
  const real = path ? await realpath(path).catch(() => undefined) : undefined;
  const roots = real ? await Promise.all(folders.map((folder) => realpath(folder).catch(() => undefined))) : [];
  if (!real || !roots.some((root) => root !== undefined && inside(real, root))) throw new Error(`only files in ${label} can be sent, not ${url}`);
  return real;
}
