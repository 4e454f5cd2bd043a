import { z } from 'zod';
import { defineInterface, messageActionOf, splitMessage, TypingIndicators } from '../../src/components/contract.ts';
import type { PrivateMessage, UserAccountClient, UserAccountSettings } from './client.ts';
import { INTERFACE_ID, parsePath, pathOf } from './paths.ts';

const MESSAGE_ACTION = messageActionOf(INTERFACE_ID);
/** Telegram's longest message, in characters. */
const MAX_TEXT = 4096;
const CONNECTION_KEYS = ['TELEGRAM_API_ID', 'TELEGRAM_API_HASH', 'TELEGRAM_SESSION'];

const MessagePayloadSchema = z.object({ text: z.string().min(1), interface_path: z.string().min(1) });
const ApiIdSchema = z.coerce.number().int().positive();

export type ClientFactory = (settings: UserAccountSettings) => UserAccountClient;

/**
 * The user-account bot (development): a Telegram account, not a bot, answering its private messages
 * over MTProto. `makeClient` is the seam: GramJS in production (`index.ts`), a stand-in in tests.
 */
export function userAccountInterface(makeClient: ClientFactory) {
  return defineInterface({
    interfaceId: INTERFACE_ID,
    description: 'Telegram user account (development): answers private messages (TELEGRAM_API_ID, TELEGRAM_API_HASH, TELEGRAM_SESSION).',
    requiredConfig: ['TELEGRAM_API_ID', 'TELEGRAM_API_HASH', 'TELEGRAM_SESSION'],
    chatPlatform: true,
    needs: ['chain', 'clock'],
    create: ({ services: { chain, clock }, config, logger, reportConnection }) => {
      const typing = new TypingIndicators(clock);
      let client: UserAccountClient | undefined;

      const receive = async (current: UserAccountClient, message: PrivateMessage) => {
        const result = await chain.submit({
          interfaceId: INTERFACE_ID,
          interfacePath: pathOf(message.peerId),
          text: message.text,
          senderId: message.peerId,
          senderName: message.senderName,
        });
        if (result.status !== 'queued') return;
        const stop = typing.start(() => void current.showTyping(message.peerId).catch((error: unknown) => logger.debug({ err: error }, 'typing not shown')));
        void result.done.finally(stop);
      };

      const connect = async () => {
        const apiId = ApiIdSchema.safeParse(config.get('TELEGRAM_API_ID'));
        if (!apiId.success) {
          reportConnection({ state: 'disconnected', detail: 'TELEGRAM_API_ID must be the number my.telegram.org gave' });
          return;
        }
        const current = makeClient({ apiId: apiId.data, apiHash: config.get('TELEGRAM_API_HASH').trim(), session: config.get('TELEGRAM_SESSION').trim() });
        client = current;
        reportConnection({ state: 'connecting' });
        try {
          const name = await current.connect();
          current.onPrivateMessage(
            (message) =>
              void receive(current, message).catch((error: unknown) => logger.error({ err: error }, 'a private message could not be handed to the chain')),
          );
          reportConnection({ state: 'connected', detail: name });
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          logger.error({ reason }, 'the Telegram user account could not connect');
          reportConnection({ state: 'disconnected', detail: reason });
        }
      };
      const disconnect = async () => {
        typing.stopAll();
        const current = client;
        client = undefined;
        await current?.disconnect();
      };

      return {
        actions: {
          [MESSAGE_ACTION]: {
            schema: MessagePayloadSchema,
            brief: 'Send a private Telegram message from the account (a plain text reply does this by itself).',
            examples: [{ text: 'Hello!', interface_path: 'telegram_user/123456789' }],
          },
        },
        validatePayload: (_type, payload) =>
          typeof payload.interface_path === 'string' && !parsePath(payload.interface_path) ? [`payload.interface_path must be ${INTERFACE_ID}/<user_id>`] : [],
        handleAction: async (_type, payload) => {
          const message = MessagePayloadSchema.parse(payload);
          const peerId = parsePath(message.interface_path);
          if (peerId === undefined) return;
          if (!client) throw new Error('the Telegram user account is not connected');
          for (const part of splitMessage(message.text, MAX_TEXT)) await client.sendMessage(peerId, part);
        },
        start: async () => {
          config.onChange(CONNECTION_KEYS, () => {
            logger.info('the Telegram user-account settings changed; connecting again');
            void disconnect().then(connect);
          });
          await connect();
        },
        stop: disconnect,
      };
    },
  });
}
