import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { type Client, Routes } from 'discord.js';
import { type ClockPort, type ComponentContext, realLocalFile, splitMessage, TypingIndicators } from '../../src/components/contract.ts';
import type { Conversation } from './paths.ts';

/** Discord's limit of a message's content, in characters. */
export const MAX_TEXT = 2000;
/** When "typing…" first shows, and how often it is repeated: Discord shows it for ten seconds or until a message arrives. */

export interface SenderOptions {
  client(): Client | undefined;
  logger: ComponentContext['logger'];
  /** The one folder a `file://` URL may name: where Vox writes its speech (VOX_OUTPUT_DIR). */
  localRoot(): string;
  /** The host's clock, which times "typing…". */
  clock: ClockPort;
}

/**
 * Everything the bot sends, through discord.js's REST client (which waits out a 429's `retry_after`,
 * per route or globally, before sending again): text cut on sentence boundaries to Discord's 2000
 * characters, files (a Vox recording is uploaded as an audio file), and "typing…" while an answer is
 * prepared. In a guild channel the first part replies to the message it answers.
 */
export class DiscordSender {
  private readonly typings: TypingIndicators;

  constructor(private readonly options: SenderOptions) {
    this.typings = new TypingIndicators(options.clock);
  }

  async text(conversation: Conversation, text: string, replyTo?: string): Promise<void> {
    for (const [index, part] of splitMessage(text, MAX_TEXT).entries())
      await this.post(conversation, { content: part, ...reference(index === 0 ? replyTo : undefined) });
  }

  /** A file by URL: a `file://` in the Vox folder is uploaded; Discord shows an http(s) link's preview itself. */
  async media(conversation: Conversation, url: string, caption: string | undefined, replyTo?: string): Promise<void> {
    const parsed = new URL(url);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') {
      await this.text(conversation, caption ? `${caption}\n${url}` : url, replyTo);
      return;
    }
    const path = await realLocalFile(url, this.options.localRoot());
    const captioned = caption !== undefined && caption.length <= MAX_TEXT;
    const name = basename(path);
    await this.post(conversation, { ...(captioned ? { content: caption } : {}), attachments: [{ id: 0, filename: name }], ...reference(replyTo) }, [
      { name, data: await readFile(path) },
    ]);
    if (!captioned && caption !== undefined) await this.text(conversation, caption);
  }

  /** Shows "typing…" until the returned function is called, once the answer takes a noticeable time. */
  typing(conversation: Conversation): () => void {
    const send = () =>
      void this.client()
        .rest.post(Routes.channelTyping(conversation.channelId))
        .catch((error: unknown) => this.options.logger.debug({ err: error }, 'the typing indicator was not shown'));
    return this.typings.start(send);
  }

  /** Ends every typing indicator (the bot stops). */
  stop(): void {
    this.typings.stopAll();
  }

  private client(): Client {
    const client = this.options.client();
    if (!client) throw new Error('the Discord bot is not running');
    return client;
  }

  private async post(conversation: Conversation, body: Record<string, unknown>, files?: Array<{ name: string; data: Buffer }>): Promise<void> {
    await this.client().rest.post(Routes.channelMessages(conversation.channelId), { body, ...(files ? { files } : {}) });
  }
}

/** A reply to the message answered, which still sends when that message was deleted meanwhile. */
const reference = (messageId: string | undefined) =>
  messageId === undefined ? {} : { message_reference: { message_id: messageId, fail_if_not_exists: false } };
