import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { serveFromChild } from './child-process.ts';

/**
 * The floor: plain Fastify, one GET route answering the same JSON text, in a process of its own; with a
 * third argument (a JSON object of headers), it sends those headers too.
 */
const [path = '/', json = '{}', extra = '{}'] = process.argv.slice(2);
const headers = JSON.parse(extra) as Record<string, string>;
const app = Fastify();
app.get(path, (_request, reply) => {
  reply.headers(headers).header('content-type', 'application/json; charset=utf-8').send(json);
});
await app.listen({ host: '127.0.0.1', port: 0 });
serveFromChild((app.server.address() as AddressInfo).port, () => app.close());
