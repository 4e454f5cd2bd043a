import { z } from 'zod';
import { defineInterface, messageActionOf, type ActionOrigin } from '../components/contract.ts';

export const INTEGRATION_INTERFACE = 'integration';
/** The contract's `<companion_source>`. */
export const COMPANION_SOURCE = 'companion';

export const integrationPath = (source: string) => `${INTEGRATION_INTERFACE}/${source}`;

/** `integration/<source>[/...]` → source. */
export function sourceOf(interfacePath: string): string | undefined {
  const [head, source] = interfacePath.split('/');
  return head === INTEGRATION_INTERFACE && source ? source : undefined;
}

const MessagePayloadSchema = z.object({
  text: z.string().min(1),
  interface_path: z.string().min(1),
  media: z.string().url().optional(),
});

const CompanionPayloadSchema = z.object({
  text: z.string().min(1),
  emotion: z.string().optional(),
});

const replyMetadata = (origin: ActionOrigin) => ({ in_reply_to: origin.messageId, interface_path: origin.interfacePath });

/**
 * The built-in interface of `POST /api/integrations/messages`: a chat from source S is answered into
 * S's outbox, and `send_companion_message` queues a message for the desktop companion.
 */
export const integrationInterface = defineInterface({
  name: INTEGRATION_INTERFACE,
  interfaceId: INTEGRATION_INTERFACE,
  description: 'Integration ingress and outboxes (POST /api/integrations/messages, GET /api/integrations/outbox).',
  needs: ['outbox'],
  create: ({ services: { outbox } }) => ({
    actions: {
      [messageActionOf(INTEGRATION_INTERFACE)]: {
        schema: MessagePayloadSchema,
        brief: 'Send a message to an integration source (its outbox).',
        examples: [{ text: 'Hello!', interface_path: 'integration/companion' }],
      },
      send_companion_message: {
        schema: CompanionPayloadSchema,
        brief: 'Queue a message for the desktop companion.',
        examples: [{ text: 'Time for a break?' }],
      },
    },
    validatePayload(actionType, payload) {
      if (actionType !== messageActionOf(INTEGRATION_INTERFACE)) return [];
      return typeof payload.interface_path === 'string' && sourceOf(payload.interface_path) === undefined
        ? ['payload.interface_path must be integration/<source>']
        : [];
    },
    async handleAction(actionType, payload, origin) {
      if (actionType === 'send_companion_message') {
        const { text, emotion } = CompanionPayloadSchema.parse(payload);
        await outbox.enqueue(COMPANION_SOURCE, {
          type: 'chat',
          payload: emotion === undefined ? { text } : { text, emotion },
          metadata: replyMetadata(origin),
        });
        return;
      }
      const { text, interface_path: path, media } = MessagePayloadSchema.parse(payload);
      const source = sourceOf(path) as string;
      await outbox.enqueue(source, { type: 'chat', payload: media === undefined ? { text } : { text, media }, metadata: replyMetadata(origin) });
    },
  }),
});
