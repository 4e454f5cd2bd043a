import { z } from 'zod';
import type { ChainPort, ComponentContext } from '../../src/components/contract.ts';
import type { FluxerSender } from './outgoing.ts';
import { type Conversation, INTERFACE_ID, pathOf } from './paths.ts';

/** How many message ids are remembered to answer each message once, whatever the gateway replays. */
const REMEMBERED = 1000;

const UserSchema = z.object({ id: z.string(), username: z.string().default(''), global_name: z.string().nullish(), bot: z.boolean().optional() });
const AttachmentSchema = z.object({
  id: z.string(),
  filename: z.string(),
  url: z.string(),
  content_type: z.string().nullish(),
  size: z.number().optional(),
});

/** The part of a MESSAGE_CREATE this interface reads (Discord v10's message object). */
export const MessageCreateSchema = z.object({
  id: z.string(),
  channel_id: z.string(),
  guild_id: z.string().nullish(),
  author: UserSchema,
  content: z.string().default(''),
  attachments: z.array(AttachmentSchema).default([]),
  mentions: z.array(z.object({ id: z.string() })).default([]),
  referenced_message: z.object({ author: z.object({ id: z.string() }) }).nullish(),
});
export type MessageCreate = z.infer<typeof MessageCreateSchema>;

/** What a message's origin metadata keeps for its answer and for actions that pass files on. */
export interface FluxerOrigin {
  message_id: string;
  channel_id: string;
  guild_id?: string;
  attachments?: Array<{ filename: string; url: string; content_type?: string }>;
}

export interface IncomingOptions {
  chain: ChainPort;
  sender: FluxerSender;
  logger: ComponentContext['logger'];
  /** The bot's own user id (from READY). */
  selfId(): string | undefined;
}

/** The text the model reads: the words without the bot's own mention, and a line per attachment. */
export function textOf(message: MessageCreate, selfId: string): string {
  const words = message.content.replaceAll(new RegExp(`<@!?${selfId}>`, 'g'), '').trim();
  const files = message.attachments.map((file) => `[file: ${file.filename}] ${file.url}`);
  return [words, ...files].filter((line) => line !== '').join('\n');
}

/**
 * Turns MESSAGE_CREATE dispatches into messages of the chain: guild channels and threads are groups
 * (asleep until woken, answering mentions and replies), a DM channel is a chat with one person. The
 * chain decides the rest (commands, attention, rate limits, history); the handler waits only until
 * the message is queued.
 */
export function messageHandler(options: IncomingOptions): (data: unknown) => Promise<void> {
  const { chain, sender, logger } = options;
  const seen = new Set<string>();

  return async (data) => {
    const parsed = MessageCreateSchema.safeParse(data);
    const selfId = options.selfId();
    if (!parsed.success || !selfId) return;
    const message = parsed.data;
    // Bots never answer each other: two of them in a channel would talk forever.
    if (message.author.bot || message.author.id === selfId || seen.has(message.id)) return;
    seen.add(message.id);
    if (seen.size > REMEMBERED) seen.delete(seen.values().next().value as string);
    const text = textOf(message, selfId);
    if (text === '') return;
    const conversation: Conversation = { channelId: message.channel_id, ...(message.guild_id ? { guildId: message.guild_id } : {}) };
    const origin: FluxerOrigin = {
      message_id: message.id,
      channel_id: message.channel_id,
      ...(message.guild_id ? { guild_id: message.guild_id } : {}),
      ...(message.attachments.length > 0
        ? { attachments: message.attachments.map(({ filename, url, content_type }) => ({ filename, url, ...(content_type ? { content_type } : {}) })) }
        : {}),
    };
    const interfacePath = pathOf(conversation);
    const result = await chain.submit({
      interfaceId: INTERFACE_ID,
      interfacePath,
      text,
      messageId: `${INTERFACE_ID}:${message.id}`,
      senderId: message.author.id,
      senderName: message.author.global_name ?? message.author.username,
      group: conversation.guildId !== undefined,
      mentioned: message.mentions.some((user) => user.id === selfId) || new RegExp(`<@!?${selfId}>`).test(message.content),
      replyToSelf: message.referenced_message?.author.id === selfId,
      metadata: { fluxer: origin },
    });
    if (result.status !== 'queued') return logger.debug({ interface_path: interfacePath, status: result.status }, 'a Fluxer message was not queued');
    const stopTyping = sender.typing(conversation);
    void result.done.catch(() => undefined).finally(stopTyping);
  };
}
