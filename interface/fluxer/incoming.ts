import { z } from 'zod';
import {
  type Action,
  type ChainPort,
  type ClockPort,
  type ComponentContext,
  hearVoiceMessage,
  submitWithVoice,
  type VoicePort,
  withTimeout,
} from '../../src/components/contract.ts';
import type { FluxerSender } from './outgoing.ts';
import { type Conversation, INTERFACE_ID, pathOf } from './paths.ts';

/** How many message ids are remembered to answer each message once, whatever the gateway replays. */
const REMEMBERED = 1000;
/** The largest voice message downloaded for speech-to-text (Discord's upload limit, which Fluxer keeps). */
const MAX_VOICE_BYTES = 25 * 1024 * 1024;
const DOWNLOAD_TIMEOUT_MS = 30_000;
/** Discord's IS_VOICE_MESSAGE flag (a recording made with the client's record button). */
const IS_VOICE_MESSAGE = 1 << 13;

const UserSchema = z.object({ id: z.string(), username: z.string().default(''), global_name: z.string().nullish(), bot: z.boolean().optional() });
const AttachmentSchema = z.object({
  id: z.string(),
  filename: z.string(),
  url: z.string(),
  content_type: z.string().nullish(),
  size: z.number().optional(),
  /** What a recorded voice message carries besides its audio. */
  waveform: z.string().nullish(),
  duration_secs: z.number().nullish(),
});
type Attachment = z.infer<typeof AttachmentSchema>;

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
  flags: z.number().int().nullish(),
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
  voice: VoicePort;
  sender: FluxerSender;
  logger: ComponentContext['logger'];
  clock: ClockPort;
  /** The bot's own user id (from READY). */
  selfId(): string | undefined;
  /** Sends one message of an answer the interface waited for (a voice message's) as written, replying to `replyTo` when given. */
  send(action: Action, replyTo: string | undefined): Promise<void>;
}

/** The text the model reads: the words without the bot's own mention, and a line per attachment. */
export function textOf(message: MessageCreate, selfId: string): string {
  const words = message.content.replaceAll(new RegExp(`<@!?${selfId}>`, 'g'), '').trim();
  const files = message.attachments.map((file) => `[file: ${file.filename}] ${file.url}`);
  return [words, ...files].filter((line) => line !== '').join('\n');
}

/**
 * The recording of a voice message: the attachment of a message flagged IS_VOICE_MESSAGE, one carrying a
 * waveform or duration, or an audio file sent alone (no words, no other file), which is how a client
 * without a record button sends one.
 */
export function voiceAttachmentOf(message: MessageCreate): Attachment | undefined {
  if (((message.flags ?? 0) & IS_VOICE_MESSAGE) !== 0) return message.attachments[0];
  const recorded = message.attachments.find((file) => file.waveform != null || file.duration_secs != null);
  if (recorded) return recorded;
  const [only, ...others] = message.attachments;
  return only?.content_type?.startsWith('audio/') && others.length === 0 && message.content.trim() === '' ? only : undefined;
}

async function download(attachment: Attachment, clock: ClockPort): Promise<Buffer> {
  const tooLarge = new Error('the voice message is over 25 MB');
  if ((attachment.size ?? 0) > MAX_VOICE_BYTES) throw tooLarge;
  const bytes = await withTimeout(clock, DOWNLOAD_TIMEOUT_MS, async (signal) => {
    const response = await fetch(attachment.url, { signal });
    if (!response.ok) throw new Error(`the voice message could not be downloaded (HTTP ${response.status})`);
    // The declared size is the sender's word: the bytes are counted too.
    if (Number(response.headers.get('content-length') ?? 0) > MAX_VOICE_BYTES) throw tooLarge;
    return Buffer.from(await response.arrayBuffer());
  });
  if (bytes.length > MAX_VOICE_BYTES) throw tooLarge;
  return bytes;
}

/**
 * Turns MESSAGE_CREATE dispatches into messages of the chain: guild channels and threads are groups
 * (asleep until woken, answering mentions and replies), a DM channel is a chat with one person. The
 * chain decides the rest (commands, attention, rate limits, history); the handler waits only until
 * the message is queued. A voice message is heard through Auris and, while Vox is on, answered by voice
 * (Vox's audio uploaded as a file through `send_media_fluxer`).
 */
export function messageHandler(options: IncomingOptions): (data: unknown) => Promise<void> {
  const { chain, voice, sender, logger } = options;
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
    const recording = voiceAttachmentOf(message);
    const text = recording
      ? await hearVoiceMessage(
          voice,
          { fileName: recording.filename, mimeType: recording.content_type ?? 'audio/ogg', download: () => download(recording, options.clock) },
          logger,
        )
      : textOf(message, selfId);
    if (text === '') return;
    const files = message.attachments.filter((file) => file !== recording);
    const conversation: Conversation = { channelId: message.channel_id, ...(message.guild_id ? { guildId: message.guild_id } : {}) };
    const origin: FluxerOrigin = {
      message_id: message.id,
      channel_id: message.channel_id,
      ...(message.guild_id ? { guild_id: message.guild_id } : {}),
      ...(files.length > 0
        ? { attachments: files.map(({ filename, url, content_type }) => ({ filename, url, ...(content_type ? { content_type } : {}) })) }
        : {}),
    };
    const interfacePath = pathOf(conversation);
    const replyTo = conversation.guildId ? message.id : undefined;
    const result = await submitWithVoice(
      {
        chain,
        voice,
        logger,
        send: (action) => options.send(action, replyTo),
        whileAnswering: (answered) => void answered.finally(sender.typing(conversation)),
      },
      {
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
      },
      recording !== undefined,
    );
    if (result.status !== 'queued' && result.status !== 'command')
      logger.debug({ interface_path: interfacePath, status: result.status }, 'a Fluxer message was not queued');
  };
}
