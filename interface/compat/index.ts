import { z } from 'zod';
import { defineInterface, messageActionOf } from '../../src/components/contract.ts';
import { COMPAT_INTERFACE, CompatBridge } from '../../src/compat/compat-bridge.ts';
import type { CompatInstance } from '../../src/compat/compat-interface.ts';

const MESSAGE_ACTION = messageActionOf(COMPAT_INTERFACE);
const MessagePayloadSchema = z.object({ text: z.string().min(1), interface_path: z.string().min(1) });

/**
 * The Ollama/OpenAI compatibility API as an interface of the message chain. It needs no configuration,
 * so it loads by default. Main listens on COMPAT_HOST:COMPAT_API_SERVER_PORT (the only file that
 * listens); the port's chat routes answer through this component's bridge, and 503 while it is not loaded.
 */
export default defineInterface({
  interfaceId: COMPAT_INTERFACE,
  description: 'Ollama- and OpenAI-compatible API (COMPAT_HOST:COMPAT_API_SERVER_PORT, default 11435).',
  // Only trusted clients (loopback or APP_API_KEY) reach the port; their own tools set the pace.
  trustedSenders: true,
  create: (context) => {
    const bridge = new CompatBridge({ chain: context.chain, config: context.config, logger: context.logger });
    const instance: CompatInstance = {
      bridge,
      actions: {
        [MESSAGE_ACTION]: {
          schema: MessagePayloadSchema,
          brief: 'Answer the client of a compat conversation (a plain text reply does this by itself).',
          examples: [{ text: 'Hello!', interface_path: 'compat/3f2a9c1b0d4e5f60' }],
        },
      },
      validatePayload: (_type, payload) =>
        typeof payload.interface_path === 'string' && !payload.interface_path.startsWith(`${COMPAT_INTERFACE}/`) ? [`payload.interface_path must be ${COMPAT_INTERFACE}/<conversation>`] : [],
      handleAction: (_type, payload, origin) => bridge.deliver(origin, MessagePayloadSchema.parse(payload).text),
      stop: () => bridge.cancelAll(),
    };
    return instance;
  },
});
