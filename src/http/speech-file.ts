import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyReply } from 'fastify';
import type { SpeechFiles } from '../audio/vox/output-files.ts';
import { notFound } from '../errors.ts';

/**
 * Streams one of Vox's speech files by name, or answers 404: a name Vox could not have written is never
 * looked up, so no name reaches outside VOX_OUTPUT_DIR.
 */
export async function sendSpeechFile(reply: FastifyReply, files: SpeechFiles, name: string): Promise<FastifyReply> {
  const path = files.pathOf(name);
  const info = path ? await stat(path).catch(() => undefined) : undefined;
  if (!path || !info?.isFile()) throw notFound('No such speech file');
  // Private: behind the trusted route a shared cache must not keep it for others.
  return reply.type('audio/wav').header('content-length', info.size).header('cache-control', 'private, max-age=3600').send(createReadStream(path));
}
