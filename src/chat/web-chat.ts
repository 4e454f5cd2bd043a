import { randomUUID } from 'node:crypto';
import { ttsPlayMessage, type SpokenAudio } from '../audio/vox/outlets.ts';
import { deliveredText, type Action, type ChainPort } from '../components/contract.ts';
import type { ChatMessage, DatabaseStatus } from '../history/chat-history.ts';
import { WEBUI_INTERFACE, type WebSession } from '../history/web-session.ts';
import type { Logger } from '../logging.ts';
import type { WebChatEntry, WebChatFrame } from './web-chat-frames.ts';

/** What the web user is called in the history and the prompt ("User: hello"). */
export const WEB_USER_NAME = 'User';
/** The assistant's name on its live messages; the history calls it `self`, which the page shows as "Anima". */
const ASSISTANT_NAME = 'self';
export const CHAT_FAILED_MESSAGE = 'Sorry, something went wrong and your message was not answered. Please try again.';

/** One web UI socket as the chat sees it. `send` must not throw. */
export interface WebChatPeer {
  /** The socket's body session: the answer's think/write animation targets its window (reset_eyes). */
  bodySessionId: string;
  send(frame: WebChatFrame): void;
}

const statusFrame = (status: DatabaseStatus): WebChatFrame => ({ type: 'database_status', reachable: status.reachable, pending_writes: status.pending_writes });

const toEntry = (message: ChatMessage): WebChatEntry => ({ ...message, id: String(message.id) });

/** What each delivered message shows: its text, and a media URL under it as a link. */
const texts = (delivered: readonly Action[]): string[] =>
  delivered.flatMap(({ payload }) =>
    typeof payload.text === 'string' ? [typeof payload.media === 'string' ? `${payload.text}\n${payload.media}` : payload.text] : [],
  );

/**
 * The web UI's conversations: which sockets show which `webui/<session_id>`, what they typed (into the
 * chain), and everything the chain, Vox and the archives send back. All windows of one conversation
 * see the same messages. Framework-free; `src/realtime/web-chat-sockets.ts` adapts the sockets.
 */
export class WebChat {
  private readonly conversations = new Map<string, Set<WebChatPeer>>();
  /** Answers in preparation per conversation (typing stays on while any is). */
  private readonly preparing = new Map<string, number>();
  /** The last database status, while the database does not answer. */
  private unreachable: DatabaseStatus | undefined;

  constructor(private readonly deps: { chain: ChainPort; logger: Logger }) {}

  /** A socket joins a conversation: its history first, then whatever is said from now on. */
  join(peer: WebChatPeer, interfacePath: string, history: ChatMessage[]): void {
    peer.send({ type: 'chat_history', interface_path: interfacePath, messages: history.map(toEntry) });
    const peers = this.conversations.get(interfacePath) ?? new Set();
    peers.add(peer);
    this.conversations.set(interfacePath, peers);
    if (this.preparing.has(interfacePath)) peer.send({ type: 'typing', active: true });
    if (this.unreachable) peer.send(statusFrame(this.unreachable));
  }

  /** The history's database stopped or started answering: every window is told (the page shows a notice meanwhile). */
  databaseStatus(status: DatabaseStatus): void {
    this.unreachable = status.reachable ? undefined : status;
    const frame = statusFrame(status);
    for (const peers of this.conversations.values()) for (const peer of peers) peer.send(frame);
  }

  leave(peer: WebChatPeer, interfacePath: string): void {
    const peers = this.conversations.get(interfacePath);
    peers?.delete(peer);
    if (peers?.size === 0) this.conversations.delete(interfacePath);
  }

  /**
   * A message typed in a window: echoed to every window of the conversation, answered through the
   * chain. The chain hands its answer back with the outcome (`awaitsReply`), because an engine failure
   * arrives as a message like a reply and must show as `chat_error`. Never rejects.
   */
  async receive(peer: WebChatPeer, session: WebSession, chat: { text: string; id: string }): Promise<void> {
    const path = session.interface_path;
    try {
      const result = await this.deps.chain.submit(
        {
          interfaceId: WEBUI_INTERFACE,
          interfacePath: path,
          text: chat.text,
          senderId: session.session_id,
          senderName: WEB_USER_NAME,
          hints: { sessionId: peer.bodySessionId },
        },
        { awaitsReply: true },
      );
      switch (result.status) {
        case 'rate_limited':
          peer.send({ type: 'chat_error', message: `You are sending messages too quickly; try again in ${Math.ceil(result.retryAfterMs / 1000)} s.` });
          return;
        case 'busy':
          peer.send({ type: 'chat_error', message: 'Still answering earlier messages; try again in a moment.' });
          return;
        case 'command':
          // Attention commands (/status ...) are answered at once, by the chain, not by the model.
          this.echo(path, chat);
          for (const text of texts(result.delivered)) this.post(path, this.entry('system', text, path));
          return;
        case 'ignored':
          this.echo(path, chat);
          return;
        case 'queued': {
          this.echo(path, chat);
          this.typing(path, +1);
          const { outcome, delivered } = await result.done;
          if (outcome === 'answered') for (const text of texts(delivered)) this.post(path, this.entry('assistant', text, path));
          if (outcome === 'error' || outcome === 'notice')
            this.post(path, { type: 'chat_error', message: deliveredText(delivered, '\n') || CHAT_FAILED_MESSAGE });
          this.typing(path, -1);
          return;
        }
      }
    } catch (error) {
      this.deps.logger.error({ err: error, interface_path: path }, 'a web chat message could not be handed to the chain');
      peer.send({ type: 'chat_error', message: CHAT_FAILED_MESSAGE });
    }
  }

  /** Vox's speech for a conversation: the audio with its caption, and the caption as the assistant's message. */
  speak(audio: SpokenAudio): boolean {
    const reached = this.post(audio.interfacePath, ttsPlayMessage(audio));
    this.post(audio.interfacePath, this.entry('assistant', audio.text, audio.interfacePath));
    return reached;
  }

  /** An assistant message for every window of the conversation (message_webui, or Vox's text instead of speech). */
  say(interfacePath: string, text: string): boolean {
    return this.post(interfacePath, this.entry('assistant', text, interfacePath));
  }

  /** After a restore (`restored`) or an archive that cleared the conversation: every window starts over. */
  replaceHistory(interfacePath: string, messages: ChatMessage[], restored: boolean): void {
    this.post(interfacePath, { type: 'chat_history', interface_path: interfacePath, messages: messages.map(toEntry), restored });
  }

  private echo(path: string, chat: { text: string; id: string }): void {
    this.post(path, {
      type: 'chat_message',
      id: chat.id,
      role: 'user',
      username: WEB_USER_NAME,
      text: chat.text,
      timestamp: new Date().toISOString(),
      interface_path: path,
    });
  }

  /** Typing is re-announced when an answer ends, since the page hides it at every assistant message. */
  private typing(path: string, change: 1 | -1): void {
    const count = (this.preparing.get(path) ?? 0) + change;
    if (count > 0) this.preparing.set(path, count);
    else this.preparing.delete(path);
    this.post(path, { type: 'typing', active: count > 0 });
  }

  private entry(role: 'assistant' | 'system', text: string, path: string): WebChatFrame {
    return {
      type: 'chat_message',
      id: randomUUID(),
      role,
      username: role === 'assistant' ? ASSISTANT_NAME : 'system',
      text,
      timestamp: new Date().toISOString(),
      interface_path: path,
    };
  }

  /** True when at least one window showed it. */
  private post(path: string, frame: WebChatFrame): boolean {
    const peers = this.conversations.get(path);
    if (!peers || peers.size === 0) {
      this.deps.logger.debug({ interface_path: path, type: frame.type }, 'no web window shows this conversation');
      return false;
    }
    for (const peer of peers) peer.send(frame);
    return true;
  }
}
