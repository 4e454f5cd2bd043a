import { shownText, isWebuiPath, WEBUI_MESSAGE_ACTION, WebuiMessagePayloadSchema, type WebChatInstance } from '../../src/chat/web-chat-interface.ts';
import { WebChat } from '../../src/chat/web-chat.ts';
import { defineInterface } from '../../src/components/contract.ts';
import { WEBUI_INTERFACE } from '../../src/history/web-session.ts';

/**
 * The chat of the web UI (WS /ws on the web port): what a window types enters the chain as
 * `webui/<session_id>`, and `message_webui` answers every window of that conversation. Needs no
 * configuration, so it loads by default. The sockets find its WebChat in the registry.
 */
export default defineInterface({
  interfaceId: WEBUI_INTERFACE,
  description: 'Chat in the web UI (WS /ws on APP_WEBUI_HTTP_PORT, default 8001), with speech played in the page.',
  create: (context) => {
    const chat = new WebChat({ chain: context.chain, logger: context.logger });
    const instance: WebChatInstance = {
      chat,
      actions: {
        [WEBUI_MESSAGE_ACTION]: {
          schema: WebuiMessagePayloadSchema,
          brief: 'Send a message to the web UI chat (a plain text reply does this by itself).',
          examples: [{ text: 'Hello!', interface_path: 'webui/0b6f8f9e-4c1a-4d2e-9a57-3f1c2d9e8b70' }],
          instructions:
            'The web UI shows your messages beside your 3D avatar: write plain conversational text (no Markdown tables or code unless asked) and keep it short.',
        },
      },
      validatePayload: (_type, payload) =>
        typeof payload.interface_path === 'string' && !isWebuiPath(payload.interface_path) ? [`payload.interface_path must be ${WEBUI_INTERFACE}/<session_id>`] : [],
      handleAction: (_type, payload, origin) => {
        const message = WebuiMessagePayloadSchema.parse(payload);
        chat.deliver(origin.messageId, message.interface_path, shownText(message));
      },
    };
    return instance;
  },
});
