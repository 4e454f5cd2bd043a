import { type Attachment, type Client, Events, type Message, MessageFlags } from 'discord.js';
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
import type { DiscordSender } from './outgoing.ts';
import { type Conversation, INTERFACE_ID, pathOf } from './paths.ts';

/** The largest voice message downloaded for speech-to-text. */
const MAX_VOICE_BYTES = 25 * 1024 * 1024;
const DOWNLOAD_TIMEOUT_MS = 30_000;

export interface IncomingOptions {
  chain: ChainPort;
  voice: VoicePort;
  sender: DiscordSender;
  logger: ComponentContext['logger'];
  clock: ClockPort;
  /** Channels (or threads' parent channels) the operator enabled: awake by default, like a chat with one person. */
  enabledChannels(): readonly string[];
  /** Sends one message of an answer the interface waited for (a voice message's) as written, as its message action would. */
  send(conversation: Conversation, action: Action): Promise<void>;
}

/** What Discord keeps in a message's origin metadata, for the answer to use. */
export interface DiscordOrigin {
  channel_id: string;
  guild_id?: string;
  /** A guild channel: the answer replies to the message it answers, so everyone sees whom the bot talks to. */
  group: boolean;
  message_id: string;
}

const attachmentLine = (attachment: Attachment) => `[${attachment.contentType?.startsWith('image/') ? 'image' : 'file'}: ${attachment.name}]`;

/** The words the model reads: the message with mentions as names, and a line naming each attachment. */
function textOf(message: Message): string {
  return [...message.attachments.values()].map(attachmentLine).concat(message.cleanContent).filter(Boolean).join(' ');
}

async function download(attachment: Attachment, clock: ClockPort): Promise<Buffer> {
  if (attachment.size > MAX_VOICE_BYTES) throw new Error('the voice message is over 25 MB');
  return withTimeout(clock, DOWNLOAD_TIMEOUT_MS, async (signal) => {
    const response = await fetch(attachment.url, { signal });
    if (!response.ok) throw new Error(`the voice message could not be downloaded (HTTP ${response.status})`);
    return Buffer.from(await response.arrayBuffer());
  });
}

/**
 * Turns Discord messages into messages of the chain: text with mentions as names, attachments named in
 * the text (their URLs in the metadata), voice messages through Auris. The chain decides the rest
 * (attention, commands, trainers, rate limits, history). A handler waits only until its message is
 * queued, so one long answer never holds the others.
 */
export function installHandlers(client: Client, options: IncomingOptions): void {
  const { chain, voice, sender, logger } = options;

  const hear = (attachment: Attachment) =>
    hearVoiceMessage(
      voice,
      { fileName: attachment.name, mimeType: attachment.contentType ?? 'audio/ogg', download: () => download(attachment, options.clock) },
      logger,
    );

  const submit = async (conversation: Conversation, input: Omit<IncomingMessageInput, 'interfaceId' | 'interfacePath'>, viaVoice: boolean) => {
    const interfacePath = pathOf(conversation);
    const result = await submitWithVoice(
      {
        chain,
        voice,
        logger,
        send: (action) => options.send(conversation, action),
        whileAnswering: (answered) => void answered.finally(sender.typing(conversation)),
      },
      { interfaceId: INTERFACE_ID, interfacePath, ...input },
      viaVoice,
    );
    if (result.status !== 'queued' && result.status !== 'command')
      logger.debug({ interface_path: interfacePath, status: result.status }, 'a Discord message was not queued');
  };

  const handle = async (message: Message) => {
    const me = client.user;
    // Bots never answer each other (two of them in a channel would talk forever), nor themselves.
    if (!me || message.author.bot || message.system) return;
    const conversation: Conversation = message.guildId ? { guildId: message.guildId, channelId: message.channelId } : { channelId: message.channelId };
    const parentId = message.channel.isThread() ? message.channel.parentId : null;
    const enabled = options.enabledChannels().some((id) => id === message.channelId || id === parentId);
    const voiceNote = message.flags.has(MessageFlags.IsVoiceMessage) ? message.attachments.first() : undefined;
    const text = voiceNote ? await hear(voiceNote) : textOf(message);
    if (text === '') return;
    const origin: DiscordOrigin = {
      channel_id: message.channelId,
      ...(message.guildId ? { guild_id: message.guildId } : {}),
      group: message.guildId !== null,
      message_id: message.id,
    };
    const attachments = voiceNote
      ? []
      : message.attachments.map((attachment) => ({ url: attachment.url, name: attachment.name, content_type: attachment.contentType }));
    await submit(
      conversation,
      {
        text,
        senderId: message.author.id,
        senderName: message.member?.displayName ?? message.author.displayName,
        group: origin.group && !enabled,
        mentioned: message.mentions.users.has(me.id),
        replyToSelf: message.mentions.repliedUser?.id === me.id,
        metadata: { discord: { ...origin, ...(attachments.length > 0 ? { attachments } : {}) } },
      },
      voiceNote !== undefined,
    );
  };

  client.on(Events.MessageCreate, (message) => {
    handle(message).catch((error: unknown) => logger.error({ err: error, message_id: message.id }, 'a Discord message could not be handled'));
  });
}
