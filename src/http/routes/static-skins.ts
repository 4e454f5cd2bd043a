import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest, notFound } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { assertSegments } from '../body-requests.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.json': 'application/json; charset=utf-8',
  '.vrm': 'model/gltf-binary',
  '.vrma': 'model/gltf-binary',
  '.glb': 'model/gltf-binary',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.txt': 'text/plain; charset=utf-8',
};

/** The decoded segments after `prefix`; 400 for anything that could leave the folder. */
function segmentsAfter(url: string, prefix: string): string[] {
  const raw = url.split('?')[0]?.slice(prefix.length) ?? '';
  const segments = raw.split('/').map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      throw badRequest('Malformed path encoding');
    }
  });
  assertSegments(...segments);
  return segments;
}

/** Streams a regular file that (after symlinks) lies inside `root`; 404 for everything else. */
export async function sendInside(reply: FastifyReply, root: string, path: string) {
  let real: string;
  let realRoot: string;
  try {
    [real, realRoot] = await Promise.all([realpath(path), realpath(root)]);
  } catch {
    throw notFound('No such file');
  }
  if (!real.startsWith(realRoot + sep)) throw notFound('No such file');
  const info = await stat(real);
  if (!info.isFile()) throw notFound('No such file');
  const etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
  reply.header('etag', etag).header('cache-control', 'no-cache');
  if (reply.request.headers['if-none-match'] === etag) return reply.status(304).send();
  return reply
    .type(CONTENT_TYPES[extname(real).toLowerCase()] ?? 'application/octet-stream')
    .header('content-length', info.size)
    .send(createReadStream(real));
}

/**
 * Skin files for the browser and body API clients: `/skins/<skin>/...` straight from the skins folder, and
 * `/animations/<state>/<file>` resolved through the body's search paths (temporary paths included).
 * GET and HEAD only, without trust checks, never outside their folders.
 */
export const staticSkinRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { body, paths } = services;

  app.get('/skins/*', { schema: { hide: true } }, async (request, reply) =>
    sendInside(reply, paths.skins, join(paths.skins, ...segmentsAfter(request.url, '/skins/'))),
  );

  app.get(
    '/animations/:state/:file',
    { schema: { hide: true, params: z.object({ state: z.string().min(1).max(128), file: z.string().min(1).max(255) }) } },
    async (request, reply) => {
      const [state, name] = segmentsAfter(request.url, '/animations/');
      if (state === undefined || name === undefined) throw notFound('No such file');
      const file = body.library.find(state, name);
      if (!file) throw notFound('No such animation');
      return sendInside(reply, join(file.path, '..'), file.path);
    },
  );
};
