import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { serveFromChild } from './child-process.ts';

/** The floor: plain Fastify, one GET route answering the same JSON text, in a process of its own. */
const [path = '/', json = '{}'] = process.argv.slice(2);
const app = Fastify();
app.get(path, (_request, reply) => {
  reply.header('content-type', 'application/json; charset=utf-8').send(json);
});
await app.listen({ host: '127.0.0.1', port: 0 });
serveFromChild((app.server.address() as AddressInfo).port, () => app.close());
