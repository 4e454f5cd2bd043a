import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { type AllowedFolders, type ClockPort, type ComponentContext, realLocalFile, splitMessage, TypingIndicators } from '../../src/components/contract.ts';
import type { Conversation } from './paths.ts';
import type { FluxerRest, MessageBody } from './rest.ts';

/** The longest message content, in characters (Discord's limit, which Fluxer keeps). */
export const MAX_CONTENT = 2000;
/**
 * "typing..." shows only for an answer that takes a while (a quick one would wait behind its request),
 * then again before it fades after about ten seconds.
 */

const CONTENT_TYPES: Record<string, string> = {
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
  '.mp3': 'audio/mpeg',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.txt': 'text/plain',
  '.pdf': 'application/pdf',
};

export interface SenderOptions {
  rest(): FluxerRest | undefined;
  allowed(): AllowedFolders;
  logger: ComponentContext['logger'];
  /** The host's clock, which times "typing...". */
  clock: ClockPort;
}

/** What the bot posts: text split at 2000 characters, files uploaded from the allowed folders, "typing...". */
export class FluxerSender {
  private readonly typings: TypingIndicators;

  constructor(private readonly options: SenderOptions) {
    this.typings = new TypingIndicators(options.clock);
  }

  /** Sends `text` in as many messages as it takes; the first answers `replyTo` when given. */
  async text(conversation: Conversation, text: string, replyTo?: string): Promise<void> {
    const rest = this.rest();
    for (const [index, part] of splitMessage(text, MAX_CONTENT).entries()) {
      await rest.createMessage(conversation.channelId, { content: part, ...(index === 0 && replyTo ? { message_reference: { message_id: replyTo } } : {}) });
    }
  }

  /**
   * Posts a file: a `file://` URL inside the allowed folders is uploaded, a web link is
   * posted as a link (the server shows its preview); nothing else of this machine is ever read.
   */
  async file(conversation: Conversation, url: string, caption?: string): Promise<void> {
    const rest = this.rest();
    if (/^https?:\/\//i.test(url)) return this.text(conversation, caption ? `${caption}\n${url}` : url);
    const path = await realLocalFile(url, this.options.allowed());
    const body: MessageBody = caption ? { content: splitMessage(caption, MAX_CONTENT)[0] } : {};
    const name = basename(path);
    const contentType = CONTENT_TYPES[extname(name).toLowerCase()];
    await rest.createMessage(conversation.channelId, body, [{ name, data: await readFile(path), ...(contentType ? { contentType } : {}) }]);
  }

  /** Shows "typing..." until the returned function is called. */
  typing(conversation: Conversation): () => void {
    const show = () =>
      this.options
        .rest()
        ?.typing(conversation.channelId)
        .catch((error: unknown) => this.options.logger.debug({ err: error }, 'the Fluxer typing indicator could not be sent'));
    return this.typings.start(() => void show());
  }

  /** Ends every "typing..." (the bot stops). */
  stop(): void {
    this.typings.stopAll();
  }

  private rest(): FluxerRest {
    const rest = this.options.rest();
    if (!rest) throw new Error('Fluxer is not connected');
    return rest;
  }
}
