import { extname } from 'node:path';
import { type Api, GrammyError, InputFile } from 'grammy';
import type { InlineKeyboardButton, InlineKeyboardMarkup } from 'grammy/types';
import { type ClockPort, type ComponentContext, realLocalFile, splitMessage, TypingIndicators, type VoicePort } from '../../src/components/contract.ts';
import type { Conversation } from './paths.ts';

/** Telegram's limits, in characters: a message's text, and a media caption. */
export const MAX_TEXT = 4096;
export const MAX_CAPTION = 1024;
/** How often a chat action is repeated: Telegram shows one for five seconds or until a message arrives. */
const ACTIVITY_REPEAT_MS = 4000;

export interface Button {
  text: string;
  /** Sent back to the bot when pressed (1-64 bytes); defaults to the button's text. */
  data?: string;
  url?: string;
}

export interface Extras {
  buttons?: Button[][];
  /** The message this answers (in a group, so everyone sees whom the bot answers). */
  replyTo?: number;
}

export interface SenderOptions {
  api(): Api | undefined;
  voice: VoicePort;
  logger: ComponentContext['logger'];
  /** The one folder a `file://` URL may name: where Vox writes its speech (VOX_OUTPUT_DIR). */
  localRoot(): string;
  clock: ClockPort;
}

type Kind = 'voice' | 'audio' | 'photo' | 'document';

const KINDS: Record<string, Kind> = {
  '.ogg': 'voice',
  '.oga': 'voice',
  '.opus': 'voice',
  '.wav': 'audio',
  '.mp3': 'audio',
  '.m4a': 'audio',
  '.flac': 'audio',
  '.jpg': 'photo',
  '.jpeg': 'photo',
  '.png': 'photo',
  '.webp': 'photo',
};

/** A 403 (blocked, kicked) or a chat that is gone: nothing the bot sends there arrives, which is no fault of the bot. */
const isUnreachable = (error: unknown) =>
  error instanceof GrammyError &&
  (error.error_code === 403 ||
    (error.error_code === 400 && /chat not found|CHAT_WRITE_FORBIDDEN|not enough rights|user is deactivated|upgraded/i.test(error.description)));

function keyboard(buttons: Button[][] | undefined): { reply_markup?: InlineKeyboardMarkup } {
  if (!buttons || buttons.length === 0) return {};
  const button = ({ text, data, url }: Button): InlineKeyboardButton => (url ? { text, url } : { text, callback_data: data ?? text });
  return { reply_markup: { inline_keyboard: buttons.map((row) => row.map(button)) } };
}

/**
 * Everything the bot sends: text cut on sentence boundaries to Telegram's 4096 characters, pictures,
 * files and voice notes (a Vox WAV re-encoded as OGG/Opus), inline keyboards, and chat actions while an
 * answer is prepared. A chat that blocked the bot or is gone is logged as such, and the send fails.
 */
export class TelegramSender {
  private readonly activities: TypingIndicators;

  constructor(private readonly options: SenderOptions) {
    this.activities = new TypingIndicators(options.clock, ACTIVITY_REPEAT_MS);
  }

  async text(conversation: Conversation, text: string, extras: Extras = {}): Promise<void> {
    const parts = splitMessage(text, MAX_TEXT);
    for (const [index, part] of parts.entries()) {
      await this.call(conversation, (api) =>
        api.sendMessage(conversation.chatId, part, {
          ...this.placement(conversation, index === 0 ? extras.replyTo : undefined),
          ...keyboard(index === parts.length - 1 ? extras.buttons : undefined),
        }),
      );
    }
  }

  /** A picture, file or sound by URL (http(s), or a `file://` in the Vox folder), with the text as its caption when it fits. */
  async media(conversation: Conversation, url: string, caption: string | undefined, extras: Extras = {}): Promise<void> {
    const captioned = caption !== undefined && caption.length <= MAX_CAPTION;
    const media = await this.source(url);
    const own = { ...this.placement(conversation, extras.replyTo), ...(captioned ? { caption } : {}) };
    const last = captioned || caption === undefined ? keyboard(extras.buttons) : {};
    await this.sendMedia(conversation, media, { ...own, ...last });
    if (!captioned && caption !== undefined) await this.text(conversation, caption, { ...(extras.buttons ? { buttons: extras.buttons } : {}) });
  }

  /**
   * Shows "typing…" (or "recording a voice message…") until the returned function is called. Only once
   * the answer takes a noticeable time, as Telegram advises: a fast answer needs no sign, and the
   * extra request would only delay it.
   */
  activity(conversation: Conversation, action: 'typing' | 'record_voice'): () => void {
    return this.activities.start(
      () =>
        void this.call(conversation, (api) => api.sendChatAction(conversation.chatId, action, this.placement(conversation, undefined))).catch(
          (error: unknown) => this.options.logger.debug({ err: error }, 'a chat action was not shown'),
        ),
    );
  }

  /** Ends every chat action (the bot stops). */
  stop(): void {
    this.activities.stopAll();
  }

  private placement(conversation: Conversation, replyTo: number | undefined) {
    return {
      ...(conversation.threadId === undefined ? {} : { message_thread_id: conversation.threadId }),
      ...(replyTo === undefined ? {} : { reply_parameters: { message_id: replyTo, allow_sending_without_reply: true } }),
    };
  }

  private async sendMedia(conversation: Conversation, media: { kind: Kind; file: string | InputFile; path?: string }, other: object): Promise<void> {
    if (media.kind === 'audio' && media.path !== undefined) {
      // A local recording (Vox's WAV) becomes a voice note, which Telegram plays inline with a waveform.
      const note = await this.options.voice.voiceNote(media.path);
      try {
        await this.call(conversation, (api) =>
          api.sendVoice(conversation.chatId, new InputFile(note.path), { duration: Math.round(note.durationS), ...other }),
        );
      } finally {
        await note.dispose();
      }
      return;
    }
    const { file } = media;
    await this.call<unknown>(conversation, (api) => {
      if (media.kind === 'voice') return api.sendVoice(conversation.chatId, file, other);
      if (media.kind === 'audio') return api.sendAudio(conversation.chatId, file, other);
      if (media.kind === 'photo') return api.sendPhoto(conversation.chatId, file, other);
      return api.sendDocument(conversation.chatId, file, other);
    });
  }

  /** What to upload: Telegram fetches an http(s) URL itself; a local file must lie inside the Vox folder. */
  private async source(url: string): Promise<{ kind: Kind; file: string | InputFile; path?: string }> {
    const parsed = new URL(url);
    const kind = KINDS[extname(parsed.pathname).toLowerCase()] ?? 'document';
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return { kind, file: url };
    if (parsed.protocol !== 'file:') throw new Error(`Telegram cannot send a ${parsed.protocol} URL`);
    const path = await realLocalFile(url, this.options.localRoot());
    return { kind, file: new InputFile(path), path };
  }

  private async call<T>(conversation: Conversation, send: (api: Api) => Promise<T>): Promise<T> {
    const api = this.options.api();
    if (!api) throw new Error('the Telegram bot is not running');
    try {
      return await send(api);
    } catch (error) {
      if (!isUnreachable(error)) throw error;
      const { description } = error as GrammyError;
      this.options.logger.warn(
        { chat_id: conversation.chatId, description },
        'Telegram does not deliver to this chat: the bot was blocked or removed, or the chat is gone',
      );
      throw new Error(`Telegram refused: ${description}`);
    }
  }
}
