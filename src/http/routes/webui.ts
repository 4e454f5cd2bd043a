import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import { WEBUI_OUTPUT } from '../../system/webui-build.ts';

/** Hashed bundle files never change under their name; index.html always revalidates. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The web UI bundle at `/` (GET/HEAD, no trust check: the page asks for its session token itself).
 * Without a build it answers 503 with the command that makes one, instead of a bare 404.
 */
export const webuiRoutes: FastifyPluginAsync<{ root?: string }> = async (app, options) => {
  const root = options.root ?? WEBUI_OUTPUT;
  if (!existsSync(join(root, 'index.html'))) {
    app.get('/', { schema: { hide: true } }, async (_request, reply) =>
      reply.status(503).type('text/plain; charset=utf-8').send('The web UI is not built yet: run `npm run build:webui` (npm start does it).'),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    // One route per built file instead of a catch-all `/*`: a catch-all would also accept WebSocket
    // upgrades on unknown paths (and close them) where clients expect a 404.
    wildcard: false,
    decorateReply: false,
    cacheControl: false,
    setHeaders: (response, path) => {
      response.setHeader('cache-control', path.includes(`${join(root, 'assets')}`) ? IMMUTABLE : 'no-cache');
    },
  });
};
