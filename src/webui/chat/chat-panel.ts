/**
 * The chat box beside the avatar (contract: "Chat over the web UI socket"): the history after the hello,
 * messages as they arrive, a thinking indicator while an answer is prepared, errors inline, and a
 * welcome while the conversation is empty.
 */
import { h } from '../dom.ts';
import type { ChatEntry, ClientMessage, ServerMessage } from '../protocol.ts';
import { ChatWelcome } from './chat-welcome.ts';

export class ChatPanel {
  private readonly list: HTMLOListElement;
  private readonly typing: HTMLDivElement;
  /** Shown while the history's database does not answer (WS `database_status`). */
  private readonly database: HTMLParagraphElement;
  private readonly input: HTMLTextAreaElement;
  private readonly form: HTMLFormElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly shown = new Map<string, HTMLLIElement>();
  private readonly welcome = new ChatWelcome();
  private awaitingReply = false;
  /** The conversation this window shows (from chat_history): the microphone's socket names it. */
  interfacePath: string | undefined;

  constructor(
    root: HTMLElement,
    private readonly send: (message: ClientMessage) => boolean,
  ) {
    this.list = h('ol', { class: 'chat-log', 'aria-live': 'polite' });
    this.typing = h('div', { class: 'chat-typing', hidden: true }, h('span', { class: 'dots' }), ' thinking…');
    this.database = h('p', { class: 'chat-notice error chat-database', role: 'alert', hidden: true });
    this.input = h('textarea', { rows: 1, placeholder: 'Say something…', 'aria-label': 'Message', maxlength: 4000 });
    this.input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey) {
        event.preventDefault();
        this.submit();
      }
    });
    this.sendButton = h('button', { type: 'submit' }, 'Send');
    this.form = h('form', { class: 'chat-form' }, this.input, this.sendButton);
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.submit();
    });
    root.append(this.welcome.element, this.database, this.list, this.typing, this.form);
  }

  /** Controls that belong with the text box (the microphone), placed before the Send button. */
  addToForm(...nodes: Node[]): void {
    this.sendButton.before(...nodes);
  }

  /** Lines under the form (the latency panel). */
  addBelow(...nodes: Node[]): void {
    this.form.after(...nodes);
  }

  /** The text box has the focus (Space then types, it does not talk). */
  typingText(): boolean {
    return document.activeElement === this.input;
  }

  /** Says again what works now (the settings may have changed while another page was shown). */
  refreshWelcome(): void {
    this.welcome.refresh();
  }

  /** True when the message was for the chat. */
  handle(message: ServerMessage): boolean {
    switch (message.type) {
      case 'chat_history':
        this.interfacePath = message.interface_path;
        this.list.replaceChildren();
        this.shown.clear();
        for (const entry of message.messages) this.show(entry);
        this.welcome.conversationEmpty = message.messages.length === 0;
        if (message.restored) this.notice('Conversation restored from an archive.');
        return true;
      case 'chat_delta':
        this.grow(message.id, message.text);
        return true;
      case 'chat_message':
        // The reply's final text replaces what its deltas built (same id: one bubble).
        this.show(message);
        if (message.role === 'assistant') this.setTyping(false);
        return true;
      case 'typing':
        this.setTyping(message.active);
        return true;
      case 'database_status':
        this.database.hidden = message.reachable;
        this.database.textContent = message.reachable
          ? ''
          : `The database is unreachable: messages are kept (${message.pending_writes} waiting) and saved when it returns.`;
        return true;
      case 'chat_error':
        this.setTyping(false);
        this.notice(message.message, true);
        return true;
      case 'error':
        // The socket refused a frame; if it was our chat message, say so instead of waiting forever.
        if (this.awaitingReply) {
          this.setTyping(false);
          this.notice(`The server refused the message: ${message.message}`, true);
        }
        return true;
      default:
        return false;
    }
  }

  private submit(): void {
    const text = this.input.value.trim();
    if (!text) return;
    const id = crypto.randomUUID();
    if (!this.send({ type: 'chat', text, id })) {
      this.notice('Not connected; the message was not sent. Reconnecting…', true);
      return;
    }
    this.input.value = '';
    this.show({ id, role: 'user', text, timestamp: new Date().toISOString() });
    this.awaitingReply = true;
    this.setTyping(true);
  }

  private setTyping(active: boolean): void {
    this.typing.hidden = !active;
    if (!active) this.awaitingReply = false;
    this.scroll();
  }

  private show(entry: ChatEntry): void {
    const time = new Date(entry.timestamp);
    const item = h(
      'li',
      { class: `chat-message ${entry.role}`, 'data-id': entry.id },
      h(
        'span',
        { class: 'who' },
        entry.role === 'user' ? 'You' : entry.username && entry.username !== 'self' ? entry.username : entry.role === 'assistant' ? 'Anima' : 'System',
      ),
      h('time', { datetime: entry.timestamp }, Number.isNaN(time.getTime()) ? '' : time.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })),
      h('p', {}, entry.text),
    );
    // The user's own message comes back echoed with its id: replace, do not duplicate.
    const existing = this.shown.get(entry.id);
    if (existing) existing.replaceWith(item);
    else this.list.append(item);
    this.shown.set(entry.id, item);
    this.welcome.conversationEmpty = false;
    this.scroll();
  }

  /** A reply as the model writes it: the bubble with this id grows; the thinking dots go with the first piece. */
  private grow(id: string, text: string): void {
    const paragraph = this.shown.get(id)?.querySelector('p');
    if (paragraph) {
      paragraph.textContent += text;
      this.scroll();
    } else this.show({ id, role: 'assistant', text, timestamp: new Date().toISOString() });
    this.setTyping(false);
  }

  private notice(text: string, error = false): void {
    this.list.append(h('li', { class: `chat-notice${error ? ' error' : ''}`, role: error ? 'alert' : 'status' }, text));
    this.scroll();
  }

  private scroll(): void {
    this.list.scrollTop = this.list.scrollHeight;
  }
}
