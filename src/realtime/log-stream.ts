import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../services.ts';

/** Lines queued beyond this for a slow reader are dropped rather than held in memory. */
const MAX_BUFFERED_BYTES = 1_048_576;

/** WS /logs: live log lines for trusted clients, present only when WEB_DEBUG=1. */
export const logStreamRoutes: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  app.get('/logs', { websocket: true, config: { trust: 'hello' } }, (socket, request) => {
    services.gate.admit(socket, request, () => {
      const unsubscribe = services.logTap.subscribe((line) => {
        if (socket.readyState === socket.OPEN && socket.bufferedAmount < MAX_BUFFERED_BYTES) socket.send(line);
      });
      socket.on('close', unsubscribe);
      socket.send(JSON.stringify({ type: 'ready' }));
    });
  });
};
