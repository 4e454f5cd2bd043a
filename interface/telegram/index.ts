import { resolve } from 'node:path';
import { z } from 'zod';
import { type ActionOrigin, defineInterface, messageActionOf } from '../../src/components/contract.ts';
import { TelegramConnection } from './connection.ts';
import { installHandlers } from './incoming.ts';
import { type Extras, TelegramSender } from './outgoing.ts';
import { type Conversation, INTERFACE_ID, parsePath } from './paths.ts';

const MESSAGE_ACTION = messageActionOf(INTERFACE_ID);
const MEDIA_ACTION = `send_media_${INTERFACE_ID}`;
/** The variables whose change replaces the bot: a new token, or another Bot API server. */
const CONNECTION_KEYS = ['TELEGRAM_BOT_TOKEN', 'TELEGRAM_API_BASE_URL'];

const ButtonSchema = z.object({
  text: z.string().min(1).max(64),
  data: z.string().min(1).optional(),
  url: z.string().url().optional(),
});
const MessagePayloadSchema = z.object({
  text: z.string().min(1),
  interface_path: z.string().min(1),
  media: z.string().url().optional(),
  /** An inline keyboard: rows of buttons under the (last part of the) message. */
  buttons: z.array(z.array(ButtonSchema).min(1).max(8)).min(1).max(12).optional(),
});
const MediaPayloadSchema = z.object({ file_url: z.string().url(), interface_path: z.string().min(1), caption: z.string().optional() });
/** The part of an answer's origin this interface reads: the Telegram message to reply to in a group. */
const OriginSchema = z.object({ telegram: z.object({ group: z.boolean(), message_id: z.number().optional() }) });

function payloadErrors(payload: Record<string, unknown>): string[] {
  const errors: string[] = [];
  const path = payload.interface_path;
  if (typeof path === 'string' && !parsePath(path))
    errors.push(`payload.interface_path must be ${INTERFACE_ID}/<chat_id> or ${INTERFACE_ID}/<chat_id>/<thread_id>`);
  const buttons = MessagePayloadSchema.shape.buttons.safeParse(payload.buttons);
  for (const button of (buttons.success ? buttons.data : undefined)?.flat() ?? []) {
    if (!button.url && Buffer.byteLength(button.data ?? button.text) > 64) errors.push(`button "${button.text}": its data must be at most 64 bytes`);
  }
  const url = payload.file_url ?? payload.media;
  if (typeof url === 'string' && !/^(https?|file):/i.test(url)) errors.push('media must be an http(s) URL or a file:// URL of generated speech');
  return errors;
}

/** In a group the answer replies to the message it answers, so everyone sees whom the bot is talking to. */
function replyTo(origin: ActionOrigin | undefined, path: string): number | undefined {
  const parsed = origin?.interfacePath === path ? OriginSchema.safeParse(origin.metadata) : undefined;
  return parsed?.success && parsed.data.telegram.group ? parsed.data.telegram.message_id : undefined;
}

/**
 * Telegram (grammY, long polling): private chats, groups (answering mentions and replies, or everything
 * once awake) and forum topics, pictures, files and voice messages in and out, inline keyboards. Needs
 * TELEGRAM_BOT_TOKEN and TELEGRAM_TRAINER_ID, the operator (who alone uses the attention commands);
 * TELEGRAM_API_BASE_URL points it at a self-hosted Bot API server.
 */
export default defineInterface({
  interfaceId: INTERFACE_ID,
  description: 'Telegram bot (TELEGRAM_BOT_TOKEN, long polling; TELEGRAM_TRAINER_ID is the operator).',
  requiredConfig: ['TELEGRAM_BOT_TOKEN', 'TELEGRAM_TRAINER_ID'],
  chatPlatform: true,
  trainerVariable: 'TELEGRAM_TRAINER_ID',
  needs: ['chain', 'voice', 'clock'],
  create: ({ services: { chain, voice, clock }, config, logger, paths, onStop, reportConnection }) => {
    const connection = new TelegramConnection({
      settings: () => ({ token: config.get('TELEGRAM_BOT_TOKEN'), apiRoot: config.get('TELEGRAM_API_BASE_URL') }),
      report: reportConnection,
      logger,
      clock,
      install: (bot) =>
        installHandlers(bot, {
          chain,
          voice,
          sender,
          logger,
          clock,
          send: (conversation, action) => sendMessage(conversation, MessagePayloadSchema.parse(action.payload)),
        }),
    });
    const sender = new TelegramSender({ api: () => connection.api, voice, logger, clock, localRoot: () => resolve(paths.cwd, config.get('VOX_OUTPUT_DIR')) });

    const sendMessage = (conversation: Conversation, payload: z.infer<typeof MessagePayloadSchema>, origin?: ActionOrigin) => {
      const extras: Extras = { ...(payload.buttons ? { buttons: payload.buttons } : {}) };
      const reply = replyTo(origin, payload.interface_path);
      if (reply !== undefined) extras.replyTo = reply;
      return payload.media ? sender.media(conversation, payload.media, payload.text, extras) : sender.text(conversation, payload.text, extras);
    };
    return {
      actions: {
        [MESSAGE_ACTION]: {
          schema: MessagePayloadSchema,
          brief: 'Send a message to a Telegram chat (a plain text reply does this by itself), optionally with a picture or file (media) and buttons.',
          examples: [
            { text: 'Hello!', interface_path: 'telegram_bot/123456789' },
            { text: 'Tea or coffee?', interface_path: 'telegram_bot/-1001234567890/42', buttons: [[{ text: 'Tea' }, { text: 'Coffee' }]] },
          ],
          instructions:
            'Telegram shows your text as written (no Markdown formatting). A pressed button comes back to you as a message with its data (or its text).',
        },
        [MEDIA_ACTION]: {
          schema: MediaPayloadSchema,
          brief: 'Send a picture, file or sound (an http(s) URL) to a Telegram chat; audio is sent as a voice message.',
          examples: [{ file_url: 'https://example.com/cat.jpg', interface_path: 'telegram_bot/123456789', caption: 'A cat.' }],
        },
      },
      validatePayload: (_type, payload) => payloadErrors(payload),
      handleAction: async (type, payload, origin) => {
        if (type === MEDIA_ACTION) {
          const media = MediaPayloadSchema.parse(payload);
          const conversation = parsePath(media.interface_path);
          if (conversation) await sender.media(conversation, media.file_url, media.caption, {});
          return;
        }
        const message = MessagePayloadSchema.parse(payload);
        const conversation = parsePath(message.interface_path);
        if (conversation) await sendMessage(conversation, message, origin);
      },
      start: () => {
        config.onChange(CONNECTION_KEYS, () => {
          logger.info('the Telegram token or server changed; reconnecting');
          void connection.restart();
        });
        onStop(() => sender.stop());
        void connection.start();
      },
      stop: () => connection.stop(),
    };
  },
});
