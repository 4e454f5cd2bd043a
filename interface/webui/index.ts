import { z } from 'zod';
import { defineInterface, messageActionOf } from '../../src/components/contract.ts';

const INTERFACE_ID = 'webui';
const MESSAGE_ACTION = messageActionOf(INTERFACE_ID);
/** `webui/<session_id>`: the web UI has one conversation per session and no threads. */
const WEBUI_PATH = /^webui\/[A-Za-z0-9_-]{8,128}$/;

const MessagePayloadSchema = z.object({
  text: z.string().min(1),
  interface_path: z.string().min(1),
  media: z.string().url().optional(),
});

/**
 * The chat of the web UI (WS /ws on the web port): what a window types enters the chain as
 * `webui/<session_id>`, and `message_webui` shows in every window of that conversation. Needs no
 * configuration, so it loads by default; while it is not loaded the page's chat says why.
 */
export default defineInterface({
  interfaceId: INTERFACE_ID,
  // The page's socket admits only trusted windows (loopback or a session token): the person at the machine.
  operatorSenders: true,
  description: 'Chat in the web UI (WS /ws on APP_WEBUI_HTTP_PORT, default 8001), with speech played in the page.',
  needs: ['webChat'],
  create: ({ services }) => ({
    actions: {
      [MESSAGE_ACTION]: {
        schema: MessagePayloadSchema,
        brief: 'Send a message to the web UI chat (a plain text reply does this by itself).',
        examples: [{ text: 'Hello!', interface_path: 'webui/0b6f8f9e-4c1a-4d2e-9a57-3f1c2d9e8b70' }],
        instructions:
          'The web UI shows your messages beside your 3D avatar: write plain conversational text (no Markdown tables or code unless asked) and keep it short.',
      },
    },
    validatePayload: (_type, payload) =>
      typeof payload.interface_path === 'string' && !WEBUI_PATH.test(payload.interface_path)
        ? [`payload.interface_path must be ${INTERFACE_ID}/<session_id>`]
        : [],
    handleAction: (_type, payload) => {
      const message = MessagePayloadSchema.parse(payload);
      // A media URL goes under the text as a link.
      services.webChat.show(message.interface_path, message.media ? `${message.text}\n${message.media}` : message.text);
    },
  }),
});
