import { EventType, type MatrixClient } from 'matrix-js-sdk';
import type { RoomMessageEventContent } from 'matrix-js-sdk/lib/types.js';
import { type ClockPort, realLocalFile, splitMessage, type VoicePort } from '../../src/components/contract.ts';
import { upload } from './media.ts';
import type { Conversation } from './paths.ts';
import type { RoomFacts } from './room-facts.ts';

/**
 * The longest text of one event, in UTF-16 units. A whole event may be 64 KiB of JSON: at up to three
 * bytes a unit (four for a surrogate pair of two) and a margin for escapes and the envelope, this fits.
 */
export const MAX_TEXT_LENGTH = 16_000;

const VOICE_BODY = 'Voice message';

export interface SenderOptions {
  client: MatrixClient;
  clock: ClockPort;
  facts: RoomFacts;
  voice: VoicePort;
  /** The folder whose files may be sent (VOX_OUTPUT_DIR). */
  voxFolder(): string;
}

/**
 * What the interface posts: text (split into events that fit), voice notes (Vox's speech re-encoded as
 * OGG/Opus, sent as an MSC3245 voice message), media already on the homeserver, and links. In a thread
 * every event carries the `m.thread` relation; an answer may point at the message it answers.
 */
export class Sender {
  constructor(private readonly options: SenderOptions) {}

  async text(conversation: Conversation, text: string, replyTo?: string): Promise<void> {
    let target = replyTo;
    for (const part of splitMessage(text, MAX_TEXT_LENGTH)) {
      await this.send(conversation, { msgtype: 'm.text', body: part, 'm.mentions': {} }, target);
      target = undefined;
    }
  }

  /**
   * A media URL: an `mxc://` file is posted as it is, Vox's speech (`file://` in VOX_OUTPUT_DIR) as a voice
   * message, and a web address as a link, which the homeserver never fetches for us (nor do we: the model
   * could be talked into fetching the server's own addresses).
   */
  async media(conversation: Conversation, url: string, replyTo?: string): Promise<void> {
    if (url.startsWith('mxc://')) return this.send(conversation, { msgtype: 'm.file', body: url.split('/').at(-1) ?? 'file', url }, replyTo);
    if (/^https?:\/\//i.test(url)) return this.text(conversation, url, replyTo);
    return this.voiceNote(conversation, await realLocalFile(url, this.options.voxFolder()), replyTo);
  }

  private async voiceNote(conversation: Conversation, path: string, replyTo?: string): Promise<void> {
    const note = await this.options.voice.voiceNote(path);
    try {
      const { url, size } = await upload(this.options.client, this.options.clock, note.path, note.mimeType, 'voice-message.ogg');
      const duration = Math.round(note.durationS * 1000);
      await this.send(
        conversation,
        {
          msgtype: 'm.audio',
          body: VOICE_BODY,
          url,
          info: { mimetype: note.mimeType, size, duration },
          // Extensible-events voice message (MSC3245 over MSC1767): clients show a voice player.
          'org.matrix.msc1767.text': VOICE_BODY,
          'org.matrix.msc1767.audio': { duration },
          'org.matrix.msc3245.voice': {},
        },
        replyTo,
      );
    } finally {
      await note.dispose();
    }
  }

  private async send(conversation: Conversation, content: Record<string, unknown>, replyTo: string | undefined): Promise<void> {
    const { client, facts } = this.options;
    if (facts.encrypted.has(conversation.roomId)) {
      throw new Error(`${conversation.roomId} is end-to-end encrypted, and this interface cannot encrypt`);
    }
    // The SDK's content types know neither the voice message's unstable fields nor a relation built apart.
    const full = { ...content, ...relation(conversation, replyTo) } as unknown as RoomMessageEventContent;
    const sent = await client.sendEvent(conversation.roomId, conversation.threadRoot ?? null, EventType.RoomMessage, full);
    facts.rememberOwn(sent.event_id);
  }
}

/** `m.relates_to`: the thread (with a reply fallback for clients without threads), or a plain reply. */
function relation({ threadRoot }: Conversation, replyTo: string | undefined): Record<string, unknown> {
  if (threadRoot) {
    return { 'm.relates_to': { rel_type: 'm.thread', event_id: threadRoot, is_falling_back: true, 'm.in_reply_to': { event_id: replyTo ?? threadRoot } } };
  }
  return replyTo ? { 'm.relates_to': { 'm.in_reply_to': { event_id: replyTo } } } : {};
}
