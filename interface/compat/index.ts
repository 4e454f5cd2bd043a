import { z } from 'zod';
import { defineInterface, messageActionOf } from '../../src/components/contract.ts';

const INTERFACE_ID = 'compat';
const MESSAGE_ACTION = messageActionOf(INTERFACE_ID);
const MessagePayloadSchema = z.object({ text: z.string().min(1), interface_path: z.string().min(1) });

/**
 * The Ollama/OpenAI compatibility API as an interface of the message chain. It needs no configuration,
 * so it loads by default; the port answers 503 while it is not loaded. Each request waits for its own
 * answer (the chain hands it back), so `message_compat` only reaches this component for a conversation
 * with no request waiting, and such a message has nobody to go to.
 */
export default defineInterface({
  interfaceId: INTERFACE_ID,
  description: 'Ollama- and OpenAI-compatible API (COMPAT_HOST:COMPAT_API_SERVER_PORT, default 11435).',
  // Only trusted clients (loopback or APP_API_KEY) reach the port; their own tools set the pace.
  trustedSenders: true,
  needs: ['compat'],
  create: ({ services, logger }) => ({
    actions: {
      [MESSAGE_ACTION]: {
        schema: MessagePayloadSchema,
        brief: 'Answer the client of a compat conversation (a plain text reply does this by itself).',
        examples: [{ text: 'Hello!', interface_path: 'compat/3f2a9c1b0d4e5f60' }],
      },
    },
    validatePayload: (_type, payload) =>
      typeof payload.interface_path === 'string' && !payload.interface_path.startsWith(`${INTERFACE_ID}/`)
        ? [`payload.interface_path must be ${INTERFACE_ID}/<conversation>`]
        : [],
    handleAction: (_type, payload) => {
      logger.info({ interface_path: MessagePayloadSchema.parse(payload).interface_path }, 'a compat message with no waiting request was dropped');
    },
    stop: () => services.compat.cancelAll(),
  }),
});
