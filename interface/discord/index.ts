import { resolve } from 'node:path';
import { z } from 'zod';
import { type ActionOrigin, defineInterface, messageActionOf } from '../../src/components/contract.ts';
import { DiscordConnection } from './connection.ts';
import { installHandlers } from './incoming.ts';
import { DiscordSender } from './outgoing.ts';
import { type Conversation, INTERFACE_ID, parsePath } from './paths.ts';

const MESSAGE_ACTION = messageActionOf(INTERFACE_ID);
const MEDIA_ACTION = `send_media_${INTERFACE_ID}`;
/** The variables whose change replaces the client: a new token, or another API server. */
const CONNECTION_KEYS = ['DISCORD_BOT_TOKEN', 'DISCORD_API_BASE_URL'];

const MessagePayloadSchema = z.object({
  text: z.string().min(1),
  interface_path: z.string().min(1),
  media: z.string().url().optional(),
});
const MediaPayloadSchema = z.object({ file_url: z.string().url(), interface_path: z.string().min(1), caption: z.string().optional() });
/** The part of an answer's origin this interface reads: the Discord message to reply to in a guild channel. */
const OriginSchema = z.object({ discord: z.object({ group: z.boolean(), message_id: z.string() }) });

function payloadErrors(payload: Record<string, unknown>): string[] {
  const errors: string[] = [];
  const path = payload.interface_path;
  if (typeof path === 'string' && !parsePath(path))
    errors.push(`payload.interface_path must be ${INTERFACE_ID}/<guild_id>/<channel_id> or ${INTERFACE_ID}/dm/<channel_id>`);
  const url = payload.file_url ?? payload.media;
  if (typeof url === 'string' && !/^(https?|file):/i.test(url)) errors.push('media must be an http(s) URL or a file:// URL of generated speech');
  return errors;
}

/** In a guild channel the answer replies to the message it answers, so everyone sees whom the bot is talking to. */
function replyTo(origin: ActionOrigin | undefined, path: string): string | undefined {
  const parsed = origin?.interfacePath === path ? OriginSchema.safeParse(origin.metadata) : undefined;
  return parsed?.success && parsed.data.discord.group ? parsed.data.discord.message_id : undefined;
}

/**
 * Discord (discord.js over the gateway): guild channels, threads and DMs, answering mentions and replies
 * in guild channels (everything in DISCORD_CHANNELS, or once woken), attachments in and out, voice
 * messages heard through Auris and answered with an audio file. Needs DISCORD_BOT_TOKEN; operators are
 * `discord:<user_id>` in TRAINER_IDS; DISCORD_API_BASE_URL points it at another server.
 */
export default defineInterface({
  interfaceId: INTERFACE_ID,
  description: 'Discord bot (DISCORD_BOT_TOKEN; operators are discord:<user_id> in TRAINER_IDS).',
  requiredConfig: ['DISCORD_BOT_TOKEN'],
  chatPlatform: true,
  needs: ['chain', 'voice', 'clock'],
  create: ({ services: { chain, voice, clock }, config, logger, paths, onStop, reportConnection }) => {
    const connection = new DiscordConnection({
      settings: () => ({ token: config.get('DISCORD_BOT_TOKEN'), apiBaseUrl: config.get('DISCORD_API_BASE_URL') }),
      report: reportConnection,
      logger,
      clock,
      install: (client) =>
        installHandlers(client, {
          chain,
          voice,
          sender,
          logger,
          clock,
          enabledChannels: () => config.get('DISCORD_CHANNELS'),
          send: (conversation, action) => sendMessage(conversation, MessagePayloadSchema.parse(action.payload)),
        }),
    });
    const sender = new DiscordSender({ client: () => connection.current, logger, clock, localRoot: () => resolve(paths.cwd, config.get('VOX_OUTPUT_DIR')) });

    const sendMessage = (conversation: Conversation, payload: z.infer<typeof MessagePayloadSchema>, origin?: ActionOrigin) => {
      const reply = replyTo(origin, payload.interface_path);
      return payload.media ? sender.media(conversation, payload.media, payload.text, reply) : sender.text(conversation, payload.text, reply);
    };
    return {
      actions: {
        [MESSAGE_ACTION]: {
          schema: MessagePayloadSchema,
          brief: 'Send a message to a Discord channel or DM (a plain text reply does this by itself), optionally with a file (media).',
          examples: [
            { text: 'Hello!', interface_path: 'discord/dm/123456789012345678' },
            { text: 'Here is the plan.', interface_path: 'discord/987654321098765432/123456789012345678' },
          ],
          instructions: 'Discord shows Markdown. A message over 2000 characters is sent in several parts.',
        },
        [MEDIA_ACTION]: {
          schema: MediaPayloadSchema,
          brief: 'Send a picture, file or sound (an http(s) URL, shown with its preview) to a Discord channel or DM.',
          examples: [{ file_url: 'https://example.com/cat.jpg', interface_path: 'discord/dm/123456789012345678', caption: 'A cat.' }],
        },
      },
      validatePayload: (_type, payload) => payloadErrors(payload),
      handleAction: async (type, payload, origin) => {
        if (type === MEDIA_ACTION) {
          const media = MediaPayloadSchema.parse(payload);
          const conversation = parsePath(media.interface_path);
          if (conversation) await sender.media(conversation, media.file_url, media.caption, replyTo(origin, media.interface_path));
          return;
        }
        const message = MessagePayloadSchema.parse(payload);
        const conversation = parsePath(message.interface_path);
        if (conversation) await sendMessage(conversation, message, origin);
      },
      start: () => {
        config.onChange(CONNECTION_KEYS, () => {
          logger.info('the Discord token or API server changed; reconnecting');
          void connection.restart();
        });
        onStop(() => sender.stop());
        void connection.start();
      },
      stop: () => connection.stop(),
    };
  },
});
