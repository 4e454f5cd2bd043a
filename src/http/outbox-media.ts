import { basename, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyRequest } from 'fastify';
import type { SpeechFiles } from '../audio/vox/output-files.ts';
import type { IntegrationRecord } from '../db/schema.ts';

/** Where the outbox's speech files are served, to trusted clients only (GET `<prefix><file>`). */
export const OUTBOX_MEDIA_PREFIX = '/api/integrations/media/';

/** The scheme and host the client reached this server by: the one address it is sure to reach again. */
export function originOf(request: FastifyRequest): string {
  const { localAddress = '127.0.0.1', localPort } = request.socket;
  const host = request.host || `${localAddress.includes(':') ? `[${localAddress}]` : localAddress}:${localPort}`;
  return `${request.protocol}://${host}`;
}

/** The name of a speech file Vox wrote, when `url` is the `file:` URL of one; otherwise undefined. */
function speechFileName(url: string, files: SpeechFiles): string | undefined {
  let path: string;
  try {
    path = fileURLToPath(url);
  } catch {
    return undefined;
  }
  const name = basename(path);
  return files.pathOf(name) === resolve(path) ? name : undefined;
}

/**
 * An outbox message as a companion on another machine can use it. Vox's speech reaches the outbox as the
 * `file:` URL a chat-platform component uploads from; for the outbox it becomes an HTTP URL on `origin`.
 * Any other `file:` URL names a path on this machine only, and is left out rather than shown.
 */
export function reachableMedia(message: IntegrationRecord, origin: string, files: SpeechFiles): IntegrationRecord {
  const { media, ...rest } = message.payload;
  if (typeof media !== 'string' || !media.startsWith('file:')) return message;
  const name = speechFileName(media, files);
  return { ...message, payload: name === undefined ? rest : { ...rest, media: `${origin}${OUTBOX_MEDIA_PREFIX}${encodeURIComponent(name)}` } };
}
