import { randomUUID } from 'node:crypto';
import type { Clock, TimerHandle } from '../body/clock.ts';
import { ttsPlayMessage, type SpokenAudio, type TtsPlayMessage } from '../audio/vox/outlets.ts';
import { deliveredText, type Action, type ChainPort } from '../components/contract.ts';
import type { ChatMessage, DatabaseStatus } from '../history/chat-history.ts';
import { WEBUI_INTERFACE, type WebSession } from '../history/web-session.ts';
import type { Logger } from '../logging.ts';
import type { Stage } from '../system/metrics.ts';
import { HeldOutput } from './held-output.ts';
import { SpokenReply, type ReplyVoice } from './spoken-reply.ts';
import { StreamedReply } from './streamed-reply.ts';
import type { TurnStages, WebChatEntry, WebChatFrame } from './web-chat-frames.ts';

/** What the web user is called in the history and the prompt ("User: hello"). */
export const WEB_USER_NAME = 'User';
/** The assistant's name on its live messages; the history calls it `self`, which the page shows as "Anima". */
const ASSISTANT_NAME = 'self';
export const CHAT_FAILED_MESSAGE = 'Sorry, something went wrong and your message was not answered. Please try again.';

/**
 * What a barge-in leaves in the history after the heard part of the reply: the model reads it in its own
 * earlier message and knows the person did not hear the rest.
 */
export const INTERRUPTED_MARKER = '[interrupted by the user]';
/** How long a barge-in waits for a window's `tts_heard` before the server's own timeline decides. */
export const HEARD_WAIT_MS = 3000;

/** Speech for the web chat's answers (Vox, WEBUI_SPEAK_REPLIES), plugged in once the audio subsystem runs. */
export interface WebChatVoice extends ReplyVoice {
  /** Plain answers are spoken now: Vox has an active engine and WEBUI_SPEAK_REPLIES is on. */
  speaksReplies(): boolean;
  /** The switch of a window that never sent one (WEBUI_SPEAK_REPLIES). */
  defaultSwitch(): boolean;
  /** The barge-in timeout and the server's timeline run on it. */
  clock: Clock;
  /** The assistant's newest message reading `original` now reads `text` (through the history's retry queue). */
  editOwn(interfacePath: string, original: string, text: string): Promise<unknown>;
  observeStage(stage: Stage, seconds: number): void;
}

/** Timing a spoken question brings along (WebChat.hear); `speechEndedAt` is a performance.now() value. */
export interface HeardTiming {
  sttS?: number;
  speechEndedAt?: number;
}

/** The reply a conversation is speaking, until its playback ends or a barge-in is settled. */
interface SpeakingReply {
  spoken: SpokenReply;
  /** The text the chain saved as the reply (resolves once it is delivered; undefined when it was not). */
  saved: Promise<string | undefined>;
  /** Set by a barge-in: the first window's `tts_heard` (or the timeout) settles it. */
  heard?: (text: string) => void;
}

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
  /** Each window's voice switch, once it sent one. */
  private readonly switches = new WeakMap<WebChatPeer, boolean>();
  /** The reply each conversation speaks (at most one: a conversation's answers come one at a time). */
  private readonly speaking = new Map<string, SpeakingReply>();
  private voice: WebChatVoice | undefined;

  constructor(private readonly deps: { chain: ChainPort; logger: Logger }) {}

  /** Plugs in (or, with undefined, removes) the speech of plain answers. */
  useVoice(voice: WebChatVoice | undefined): void {
    this.voice = voice;
  }

  /** A window currently shows this conversation. */
  shows(interfacePath: string): boolean {
    return (this.conversations.get(interfacePath)?.size ?? 0) > 0;
  }

  /** A window's voice switch: only windows with it on get `tts_play`. */
  setVoice(peer: WebChatPeer, speak: boolean): void {
    this.switches.set(peer, speak);
  }

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
    if (peers?.size !== 0) return;
    this.conversations.delete(interfacePath);
    // Nobody is left to hear it: what is still to be said is dropped (the history keeps the whole reply).
    this.speaking.get(interfacePath)?.spoken.stop();
    this.speaking.delete(interfacePath);
  }

  /**
   * A message typed in a window: echoed to every window of the conversation, answered through the
   * chain. The chain hands its answer back with the outcome (`awaitsReply`), because an engine failure
   * arrives as a message like a reply and must show as `chat_error`. Never rejects.
   */
  async receive(peer: WebChatPeer, session: WebSession, chat: { text: string; id: string }): Promise<void> {
    await this.converse({
      path: session.interface_path,
      senderId: session.session_id,
      bodySessionId: peer.bodySessionId,
      chat,
      tell: (frame) => peer.send(frame),
    });
  }

  /**
   * A final transcript of the person speaking into a web conversation: shown to every window as their
   * message, then answered like typed text. `timing` adds `stt` and `voice_loop` to the turn. With `kept`
   * (an end candidate, heard before the end of speech is certain) the answer starts at once, but the
   * windows, the history and the body see nothing of the turn until `kept` resolves true, and nothing at
   * all if it resolves false. Never rejects.
   */
  async hear(interfacePath: string, text: string, timing: HeardTiming = {}, kept?: Promise<boolean>): Promise<void> {
    const words = text.trim();
    const [window] = this.conversations.get(interfacePath) ?? [];
    if (words === '' || !window) return;
    await this.converse({
      path: interfacePath,
      senderId: interfacePath.slice(WEBUI_INTERFACE.length + 1),
      bodySessionId: window.bodySessionId,
      chat: { text: words, id: randomUUID() },
      tell: (frame) => this.post(interfacePath, frame),
      timing,
      kept,
    });
  }

  /**
   * Barge-in: the reply the conversation speaks stops at once (`tts_stop`), its pending sentences are
   * dropped, and once the first window says how far it got (`tts_heard`, else after HEARD_WAIT_MS what
   * the server's timeline had played), the history keeps only that, with INTERRUPTED_MARKER. The text
   * itself still finishes in the windows. No-op when nothing is spoken.
   */
  interrupt(interfacePath: string): void {
    const reply = this.speaking.get(interfacePath);
    const voice = this.voice;
    if (!reply || !voice || reply.heard || !reply.spoken.active) return;
    reply.spoken.stop();
    this.post(interfacePath, { type: 'tts_stop', utterance_id: reply.spoken.utteranceId });
    const at = voice.clock.now();
    let timer: TimerHandle | undefined;
    const heard = new Promise<string>((resolve) => {
      reply.heard = resolve;
      timer = voice.clock.setTimeout(() => resolve(reply.spoken.playedText(at)), HEARD_WAIT_MS);
    });
    void heard
      .then(async (text) => {
        voice.clock.clearTimeout(timer);
        if (this.speaking.get(interfacePath) === reply) this.speaking.delete(interfacePath);
        const original = await reply.saved;
        if (original === undefined) return;
        await voice.editOwn(interfacePath, original, text === '' ? INTERRUPTED_MARKER : `${text} ${INTERRUPTED_MARKER}`);
      })
      .catch((error: unknown) => this.deps.logger.error({ err: error, interface_path: interfacePath }, 'keeping only the heard part of a reply failed'));
  }

  /** A window's report of how far it played an utterance after a barge-in; the first one counts. */
  heard(interfacePath: string, report: { utterance_id: string; seq: number; offset_s: number }): void {
    const reply = this.speaking.get(interfacePath);
    if (reply?.spoken.utteranceId !== report.utterance_id) return;
    reply.heard?.(reply.spoken.heardText(report.seq, report.offset_s));
  }

  /** One message into the chain and its answer back, streamed; `tell` reaches whoever sent it. */
  private async converse(turn: {
    path: string;
    senderId: string;
    bodySessionId: string;
    chat: { text: string; id: string };
    tell(frame: WebChatFrame): void;
    timing?: HeardTiming;
    kept?: Promise<boolean> | undefined;
  }): Promise<void> {
    const { path, chat } = turn;
    const held = new HeldOutput(turn.kept);
    const tell = (frame: WebChatFrame) => held.run(() => turn.tell(frame));
    const show = (frame: WebChatFrame) => held.run(() => this.post(path, frame));
    const stages: TurnStages = {};
    const observed = (stage: keyof TurnStages, seconds: number) => {
      stages[stage] = Math.round(seconds * 1000) / 1000;
    };
    const received = performance.now();
    if (turn.timing?.sttS !== undefined) observed('stt', turn.timing.sttS);
    const replyId = randomUUID();
    let generationStarted = received;
    let spokeAt: number | undefined;
    const firstAudio = () => {
      if (spokeAt !== undefined) return;
      spokeAt = performance.now();
      observed('tts_first_audio', (spokeAt - generationStarted) / 1000);
      this.voice?.observeStage('tts_first_audio', (spokeAt - generationStarted) / 1000);
      const ended = turn.timing?.speechEndedAt;
      if (ended !== undefined) {
        observed('voice_loop', (spokeAt - ended) / 1000);
        this.voice?.observeStage('voice_loop', (spokeAt - ended) / 1000);
      }
    };
    // The reply's text as saved, for a barge-in that cuts it down to what was heard.
    let settle: (text: string | undefined) => void = () => undefined;
    const saved = new Promise<string | undefined>((resolve) => (settle = resolve));
    const stream: StreamedReply = new StreamedReply({
      delta: (text) => show({ type: 'chat_delta', id: replyId, text }),
      speech: () => this.spokenReply(path, { saved, held, kept: turn.kept }, () => stream.hasMore, firstAudio),
    });
    try {
      const result = await this.deps.chain.submit(
        {
          interfaceId: WEBUI_INTERFACE,
          interfacePath: path,
          text: chat.text,
          senderId: turn.senderId,
          senderName: WEB_USER_NAME,
          hints: { sessionId: turn.bodySessionId },
        },
        {
          awaitsReply: true,
          ...(turn.kept ? { confirmed: turn.kept } : {}),
          onDelta: (delta) => stream.push(delta),
          onStage: (stage, seconds) => {
            // The first token's delay dates the start of generation, which tts_first_audio counts from.
            if (stage === 'llm_first_token') generationStarted = performance.now() - seconds * 1000;
            observed(stage, seconds);
          },
        },
      );
      switch (result.status) {
        case 'rate_limited':
          tell({ type: 'chat_error', message: `You are sending messages too quickly; try again in ${Math.ceil(result.retryAfterMs / 1000)} s.` });
          return;
        case 'busy':
          tell({ type: 'chat_error', message: 'Still answering earlier messages; try again in a moment.' });
          return;
        case 'command':
          // Attention commands (/status ...) are answered at once, by the chain, not by the model.
          held.run(() => this.echo(path, chat));
          for (const text of texts(result.delivered)) show(this.entry('system', text, path));
          return;
        case 'ignored':
          held.run(() => this.echo(path, chat));
          return;
        case 'queued': {
          held.run(() => this.echo(path, chat));
          held.run(() => this.typing(path, +1));
          const { outcome, delivered } = await result.done.finally(() => stream.end());
          const spoken = stream.spoken;
          const reply = delivered.find((action) => typeof action.payload.text === 'string')?.payload.text as string | undefined;
          settle(outcome === 'answered' ? reply : undefined);
          // The reply's first message carries the deltas' id: the page replaces the streamed bubble with it.
          if (outcome === 'answered')
            for (const [index, text] of texts(delivered).entries()) show(this.entry('assistant', text, path, index === 0 ? replyId : undefined));
          if (outcome === 'error' || outcome === 'notice') show({ type: 'chat_error', message: deliveredText(delivered, '\n') || CHAT_FAILED_MESSAGE });
          held.run(() => this.typing(path, -1));
          if (outcome === 'cancelled') spoken?.stop();
          await spoken?.finished();
          show({ type: 'turn_stages', interface_path: path, stages });
          return;
        }
      }
    } catch (error) {
      this.deps.logger.error({ err: error, interface_path: path }, 'a web chat message could not be handed to the chain');
      tell({ type: 'chat_error', message: CHAT_FAILED_MESSAGE });
    } finally {
      settle(undefined);
    }
  }

  /** The speech of a plain answer, when it is to be spoken: Vox on, WEBUI_SPEAK_REPLIES, a window's switch on. */
  private spokenReply(
    path: string,
    turn: { saved: Promise<string | undefined>; held: HeldOutput; kept: Promise<boolean> | undefined },
    hasMore: () => boolean,
    firstAudio: () => void,
  ): SpokenReply | undefined {
    const voice = this.voice;
    if (!voice?.speaksReplies() || this.listeners(path).length === 0) return undefined;
    const spoken = new SpokenReply({
      voice,
      hasMore,
      logger: this.deps.logger,
      ...(turn.kept ? { kept: turn.kept } : {}),
      send: (frame) => {
        if (this.sendSpeech(path, frame)) firstAudio();
      },
      end: (seq) => {
        for (const peer of this.listeners(path)) peer.send({ type: 'tts_end', utterance_id: spoken.utteranceId, seq });
      },
    });
    turn.held.run(() => this.speaking.set(path, { spoken, saved: turn.saved }));
    return spoken;
  }

  /** The windows of the conversation whose voice switch is on. */
  private listeners(path: string): WebChatPeer[] {
    const fallback = this.voice?.defaultSwitch() ?? true;
    return [...(this.conversations.get(path) ?? [])].filter((peer) => this.switches.get(peer) ?? fallback);
  }

  /** A `tts_play` piece for the windows that speak; true when one got it. */
  private sendSpeech(path: string, frame: TtsPlayMessage): boolean {
    const listeners = this.listeners(path);
    for (const peer of listeners) peer.send(frame);
    return listeners.length > 0;
  }

  /**
   * Vox's speech for a conversation (a tts_speak action): an utterance of one piece for the windows that
   * speak, and the caption as the assistant's message for all.
   */
  speak(audio: SpokenAudio): boolean {
    const reached = this.sendSpeech(audio.interfacePath, ttsPlayMessage(audio, { utteranceId: randomUUID(), seq: 0, last: true }));
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

  private entry(role: 'assistant' | 'system', text: string, path: string, id = randomUUID()): WebChatFrame {
    return {
      type: 'chat_message',
      id,
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
