import { webChatIfLoaded, webChatUnavailable, type WebChatHost } from '../chat/web-chat-interface.ts';
import type { WebChat } from '../chat/web-chat.ts';
import type { WebChatFrame } from '../chat/web-chat-frames.ts';
import { toChatMessage, type ChatHistory, type ChatMessage } from '../history/chat-history.ts';
import type { WebSessions } from '../history/web-session.ts';
import type { Logger } from '../logging.ts';
import type { WebChatClientMessage } from './protocol.ts';

/** One admitted socket's chat; both calls must not throw. */
export interface SocketChatSession {
  receive(message: WebChatClientMessage): void;
  close(): void;
}

/** The chat of a socket route (only `/ws` has one): opened once a socket is admitted and welcomed. */
export interface SocketChat {
  open(peer: { bodySessionId: string; send(frame: WebChatFrame): void }): SocketChatSession;
}

/**
 * `/ws` sockets as web chat windows: each gets its web session (the persistent one, or its own under
 * MULTI_SESSION, released on close), the conversation's history, then joins it. Chat messages that
 * arrive before the history is sent wait for it, so their echo never precedes the history.
 */
export function webChatSockets(deps: { host: WebChatHost; sessions: WebSessions; history: ChatHistory; logger: Logger }): SocketChat {
  const { logger } = deps;
  return {
    open(peer) {
      const session = deps.sessions.connect();
      let closed = false;
      let chat: WebChat | undefined;
      const ready = (async () => {
        chat = webChatIfLoaded(deps.host);
        if (!chat) return;
        let history: ChatMessage[] = [];
        try {
          history = (await deps.history.load(session.interface_path)).map(toChatMessage);
        } catch (error) {
          // The window can still chat; it just starts without the earlier messages.
          logger.warn({ err: error, interface_path: session.interface_path }, 'loading the web chat history failed');
        }
        if (!closed) chat.join(peer, session.interface_path, history);
      })().catch((error: unknown) => logger.error({ err: error }, 'opening the web chat of a socket failed'));
      return {
        receive(message) {
          ready
            .then(async () => {
              if (closed) return;
              if (message.type === 'voice') chat?.setVoice(peer, message.speak);
              else if (message.type === 'tts_heard') chat?.heard(session.interface_path, message);
              else if (chat) await chat.receive(peer, session, message);
              else peer.send({ type: 'chat_error', message: webChatUnavailable(deps.host.components) });
            })
            .catch((error: unknown) => logger.error({ err: error }, 'handling a web chat message failed'));
        },
        close() {
          closed = true;
          chat?.leave(peer, session.interface_path);
          deps.sessions.disconnect(session.session_id);
        },
      };
    },
  };
}
