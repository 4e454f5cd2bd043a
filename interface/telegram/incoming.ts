import type { Api, Bot } from 'grammy';
import type { Message, User, UserFromGetMe } from 'grammy/types';
import {
  type Action,
  type ChainPort,
  type ClockPort,
  type ComponentContext,
  hearVoiceMessage,
  type IncomingMessageInput,
  submitWithVoice,
  type VoicePort,
  withTimeout,
} from '../../src/components/contract.ts';
import type { TelegramSender } from './outgoing.ts';
import { type Conversation, INTERFACE_ID, pathOf } from './paths.ts';

/** Telegram's getFile serves files up to 20 MB. */
const MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024;
const DOWNLOAD_TIMEOUT_MS = 30_000;

export interface IncomingOptions {
  chain: ChainPort;
  voice: VoicePort;
  sender: TelegramSender;
  logger: ComponentContext['logger'];
  clock: ClockPort;
  /** Sends one message of an answer the interface waited for (a voice message's) as written, as its message action would. */
  send(conversation: Conversation, action: Action): Promise<void>;
}

/** What Telegram keeps in a message's origin metadata, for the answer to use. */
export interface TelegramOrigin {
  chat_id: number;
  group: boolean;
  /** The message to answer with a reply (groups); absent for a button press. */
  message_id?: number;
}

const nameOf = (user: User) => [user.first_name, user.last_name].filter(Boolean).join(' ') || user.username || String(user.id);
const isGroup = (message: Message) => message.chat.type === 'group' || message.chat.type === 'supergroup';
const conversationOf = (message: Message): Conversation =>
  message.is_topic_message && message.message_thread_id !== undefined
    ? { chatId: message.chat.id, threadId: message.message_thread_id }
    : { chatId: message.chat.id };

/** The slices of a text or caption that Telegram marked with one of these entity types. */
function marked(message: Message, types: readonly string[]): Array<{ text: string; user?: User; offset: number }> {
  const text = message.text ?? message.caption ?? '';
  return (message.entities ?? message.caption_entities ?? [])
    .filter((entity) => types.includes(entity.type))
    .map((entity) => ({
      text: text.slice(entity.offset, entity.offset + entity.length),
      offset: entity.offset,
      ...('user' in entity ? { user: entity.user } : {}),
    }));
}

/** A /command addressed to another bot of the group (`/sleep@other_bot`) is none of this bot's business. */
function forAnotherBot(message: Message, me: UserFromGetMe): boolean {
  const command = marked(message, ['bot_command']).find((entity) => entity.offset === 0);
  const target = command?.text.split('@')[1];
  return target !== undefined && target.toLowerCase() !== me.username.toLowerCase();
}

/** Whether the message names the bot (@username, a text mention, /command@username) or answers one of its messages. */
function addressing(message: Message, me: UserFromGetMe): { mentioned: boolean; replyToSelf: boolean } {
  const handle = `@${me.username.toLowerCase()}`;
  const mentioned = marked(message, ['mention', 'text_mention', 'bot_command']).some(
    (entity) => entity.user?.id === me.id || entity.text.toLowerCase() === handle || entity.text.toLowerCase().endsWith(handle),
  );
  const replied = message.reply_to_message;
  // In a forum every message of a topic "replies" to the topic's first message: that is no reply to the bot.
  return { mentioned, replyToSelf: replied?.from?.id === me.id && replied.forum_topic_created === undefined };
}

/** The text the model reads for a message: its words, with a line naming a picture or file. Undefined: nothing to answer. */
export function textOf(message: Message): string | undefined {
  const caption = message.caption ? ` ${message.caption}` : '';
  if (message.text !== undefined) return message.text;
  if (message.photo) return `[photo]${caption}`;
  if (message.document) return `[file: ${message.document.file_name ?? 'unnamed'}]${caption}`;
  if (message.audio) return `[audio: ${message.audio.title ?? message.audio.file_name ?? 'untitled'}]${caption}`;
  if (message.video) return `[video]${caption}`;
  if (message.sticker) return `[sticker ${message.sticker.emoji ?? ''}]`.replace(' ]', ']');
  return undefined;
}

/** The attachment's Telegram file, kept in the origin metadata so an action can send it on. */
function attachmentOf(message: Message): Record<string, unknown> | undefined {
  const photo = message.photo?.at(-1);
  if (photo) return { kind: 'photo', file_id: photo.file_id };
  const file = message.document ?? message.audio ?? message.video;
  if (!file) return undefined;
  return {
    kind: message.document ? 'document' : message.audio ? 'audio' : 'video',
    file_id: file.file_id,
    file_name: file.file_name,
    mime_type: file.mime_type,
  };
}

async function download(api: Api, clock: ClockPort, fileId: string): Promise<Buffer> {
  const file = await api.getFile(fileId);
  if (!file.file_path) throw new Error('Telegram gave no file_path for the voice message');
  if ((file.file_size ?? 0) > MAX_DOWNLOAD_BYTES) throw new Error('the voice message is over 20 MB');
  const apiRoot = api.options?.apiRoot ?? 'https://api.telegram.org';
  return withTimeout(clock, DOWNLOAD_TIMEOUT_MS, async (signal) => {
    const response = await fetch(`${apiRoot}/file/bot${api.token}/${file.file_path}`, { signal });
    if (!response.ok) throw new Error(`the voice message could not be downloaded (HTTP ${response.status})`);
    return Buffer.from(await response.arrayBuffer());
  });
}

/**
 * Turns Telegram updates into messages of the chain: text, captions and attachments, voice messages
 * through Auris, button presses. The chain decides the rest (commands, attention, rate limits, history).
 * A handler waits only until its message is queued, so one long answer never holds the polling.
 */
export function installHandlers(bot: Bot, options: IncomingOptions): void {
  const { chain, voice, sender, logger } = options;

  const submit = async (conversation: Conversation, input: Omit<IncomingMessageInput, 'interfaceId' | 'interfacePath'>, viaVoice: boolean) => {
    const interfacePath = pathOf(conversation);
    const result = await submitWithVoice(
      {
        chain,
        voice,
        logger,
        send: (action) => options.send(conversation, action),
        whileAnswering: (answered, spoken) => void answered.finally(sender.activity(conversation, spoken ? 'record_voice' : 'typing')),
      },
      { interfaceId: INTERFACE_ID, interfacePath, ...input },
      viaVoice,
    );
    if (result.status !== 'queued' && result.status !== 'command')
      logger.debug({ interface_path: interfacePath, status: result.status }, 'a Telegram message was not queued');
  };

  bot.on('message', async (ctx) => {
    const { message, me } = ctx;
    // Bots never answer each other: two of them in a group would talk forever.
    if (!message.from || message.from.is_bot || forAnotherBot(message, me)) return;
    const { voice: note } = message;
    const text = note
      ? await hearVoiceMessage(voice, { fileName: 'voice.ogg', mimeType: 'audio/ogg', download: () => download(ctx.api, options.clock, note.file_id) }, logger)
      : textOf(message);
    if (text === undefined) return;
    const attachment = attachmentOf(message);
    const origin: TelegramOrigin = { chat_id: message.chat.id, group: isGroup(message), message_id: message.message_id };
    await submit(
      conversationOf(message),
      {
        text,
        senderId: String(message.from.id),
        senderName: nameOf(message.from),
        group: isGroup(message),
        ...addressing(message, me),
        metadata: { telegram: { ...origin, ...(attachment ? { attachment } : {}) } },
      },
      message.voice !== undefined,
    );
  });

  bot.on('callback_query:data', async (ctx) => {
    const { callbackQuery: query } = ctx;
    // First, so the button stops spinning whatever the answer takes.
    await ctx.answerCallbackQuery().catch((error: unknown) => logger.debug({ err: error }, 'a button press could not be acknowledged'));
    const message = query.message;
    if (!message || query.from.is_bot) return;
    const origin: TelegramOrigin = { chat_id: message.chat.id, group: message.chat.type !== 'private' };
    await submit(
      conversationOf(message as Message),
      {
        text: query.data,
        senderId: String(query.from.id),
        senderName: nameOf(query.from),
        group: origin.group,
        // A press answers the bot's own message, so even a sleeping group hears it.
        replyToSelf: true,
        metadata: { telegram: { ...origin, button: true } },
      },
      false,
    );
  });

  bot.catch((error) => logger.error({ err: error.error, update_id: error.ctx.update.update_id }, 'a Telegram update could not be handled'));
}
