import { realpath } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A `file://` URL an action may send, only inside `folder` (VOX_OUTPUT_DIR, where Vox writes the speech
 * it hands to `send_media_matrix`): a model told to "send file:///etc/passwd" by someone in a room must
 * not post the server's files. Undefined for any other URL.
 */
export function localFileOf(url: string, folder: string): string | undefined {
  if (!url.startsWith('file:')) return undefined;
  let path: string;
  try {
    path = resolve(fileURLToPath(url));
  } catch {
    return undefined;
  }
  return path.startsWith(`${resolve(folder)}${sep}`) ? path : undefined;
}

/** The same check on the real paths (a link inside the folder may point out of it); throws when outside. */
export async function realLocalFile(url: string, folder: string): Promise<string> {
  const path = localFileOf(url, folder);
  const [real, root] = path ? await Promise.all([realpath(path), realpath(folder)]) : [];
  if (!real || !root || !real.startsWith(`${root}${sep}`)) throw new Error(`only files in VOX_OUTPUT_DIR can be sent, not ${url}`);
  return real;
}
