import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../services.ts';
import { SocketHub } from './socket-hub.ts';
import { webChatSockets } from './web-chat-sockets.ts';

/**
 * WS /ws (the web UI socket) and WS /api/body/ws (the public body API socket): the same protocol, each
 * hub one body transport for as long as this app runs. `/ws` also carries the web chat.
 */
export const bodySocketRoutes: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  const logger = services.logger.child({ component: 'sockets' });
  const hubs = {
    '/ws': new SocketHub(
      services.body,
      services.gate,
      logger.child({ socket: 'webui' }),
      webChatSockets({
        host: services,
        sessions: services.history.sessions,
        history: services.history.chat,
        logger: logger.child({ socket: 'webui', component: 'web_chat' }),
      }),
    ),
    '/api/body/ws': new SocketHub(services.body, services.gate, logger.child({ socket: 'body_api' })),
  };
  for (const [path, hub] of Object.entries(hubs)) {
    const removeTransport = services.body.addTransport(hub);
    const uncount = services.metrics.gauge('anima_ws_clients', 'WebSocket clients past their hello (/ws and /api/body/ws)', () => hub.clientCount);
    app.addHook('onClose', async () => {
      removeTransport();
      uncount();
    });
    app.get(path, { websocket: true, config: { trust: 'hello' } }, (socket, request) => hub.accept(socket, request));
  }
};
