import { Api, TelegramClient } from 'telegram';
import { NewMessage, type NewMessageEvent } from 'telegram/events/index.js';
import { Logger, LogLevel } from 'telegram/extensions/Logger.js';
import { StringSession } from 'telegram/sessions/index.js';
import type { EntityLike } from 'telegram/define.js';

/** A private message to the account, as the interface needs it. */
export interface PrivateMessage {
  /** The other person's user id, which is also the chat's. */
  peerId: string;
  senderName: string;
  text: string;
}

/**
 * The seam between the interface and MTProto: what the user-account bot does with its client. The
 * GramJS client below is the production one; MTProto (encrypted, with Telegram's own data centres)
 * cannot be stood in for by a local server, so the tests give the interface a client of their own.
 */
export interface UserAccountClient {
  /** Connects with the saved session; resolves with the account's name, rejects when the session is refused. */
  connect(): Promise<string>;
  onPrivateMessage(handler: (message: PrivateMessage) => void): void;
  sendMessage(peerId: string, text: string): Promise<void>;
  /** "typing…" in that chat, for a few seconds. */
  showTyping(peerId: string): Promise<void>;
  disconnect(): Promise<void>;
}

export interface UserAccountSettings {
  apiId: number;
  apiHash: string;
  session: string;
}

/** GramJS's own logger, silenced: the interface logs what matters through its pino logger. */
const quiet = () => new Logger(LogLevel.NONE);

const nameOf = (user: Api.User | undefined) => [user?.firstName, user?.lastName].filter(Boolean).join(' ') || user?.username || '';

/** The production client: GramJS with a StringSession made by `npm run telegram:login`. */
export function gramJsClient(settings: UserAccountSettings): UserAccountClient {
  const client = new TelegramClient(new StringSession(settings.session), settings.apiId, settings.apiHash, {
    connectionRetries: 5,
    baseLogger: quiet(),
  });
  /** The chats met since the start: GramJS addresses a user by its input peer (id and access hash), not by a bare id. */
  const peers = new Map<string, EntityLike>();
  const peerOf = (peerId: string) => {
    const peer = peers.get(peerId);
    if (!peer) throw new Error(`no private chat with ${peerId} since the start; the user account writes only to people who wrote to it`);
    return peer;
  };
  return {
    async connect() {
      await client.connect();
      if (!(await client.checkAuthorization())) throw new Error('Telegram refused TELEGRAM_SESSION; make a new one with npm run telegram:login');
      const me = await client.getMe();
      return nameOf(me) || String(me.id);
    },
    onPrivateMessage(handler) {
      client.addEventHandler(
        async (event: NewMessageEvent) => {
          const { message } = event;
          if (!message.isPrivate || message.out || !message.senderId || message.text === '') return;
          const sender = (await message.getSender()) as Api.User | undefined;
          // Bots never answer each other: two of them would talk forever.
          if (sender?.bot) return;
          const peer = await message.getInputChat();
          if (peer) peers.set(message.senderId.toString(), peer);
          handler({ peerId: message.senderId.toString(), senderName: nameOf(sender), text: message.text });
        },
        new NewMessage({ incoming: true }),
      );
    },
    async sendMessage(peerId, text) {
      await client.sendMessage(peerOf(peerId), { message: text });
    },
    async showTyping(peerId) {
      await client.invoke(new Api.messages.SetTyping({ peer: peerOf(peerId), action: new Api.SendMessageTypingAction() }));
    },
    async disconnect() {
      await client.destroy();
    },
  };
}
