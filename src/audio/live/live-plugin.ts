import { randomUUID } from 'node:crypto';
import type { Logger } from '../../logging.ts';
import type { EngineRegistry } from '../engine-registry.ts';
import type { SpeechOutlets } from '../vox/outlets.ts';
import type { VoxPlugin } from '../vox/vox-plugin.ts';
import { liveEvent, type LiveEngine, type LiveEvent, type OpenSessionOptions } from './contract.ts';

export const LIVE_INTERFACE = 'live';
export const livePath = (sessionId: string) => `${LIVE_INTERFACE}/${sessionId}`;

/** Audio chunks a session may have waiting for its engine before the client counts as flooding. */
const MAX_BACKLOG = 256;

/** Where a session's output goes (the socket route). */
export interface LiveSink {
  event(event: LiveEvent): void;
  /** The assistant's answer as text (a caption, or the fallback when speech failed). */
  answer(text: string): void;
}

/** Where finals go as the user's words: the message chain (set by the chain adapter), or a session's own. */
export interface LiveConversation {
  /** `metadata` is the final TRANSCRIPT's (UtteranceTiming from the built-in engine). */
  submit(sessionId: string, text: string, metadata: Record<string, unknown>): Promise<void>;
  /** A partial transcript (an end candidate, or its withdrawal: see OpenSessionOptions.anticipate). */
  partial?(sessionId: string, text: string, metadata: Record<string, unknown>): void;
}

export class LiveSession {
  readonly id = randomUUID();
  private tail: Promise<void> = Promise.resolve();
  private waiting = 0;
  private closed = false;

  constructor(
    private readonly engine: LiveEngine,
    private readonly onClose: (session: LiveSession) => void,
    private readonly logger: Logger,
  ) {}

  get interfacePath(): string {
    return livePath(this.id);
  }

  /** Chunks not yet taken by the engine. */
  get backlog(): number {
    return this.waiting;
  }

  /** Queues one PCM chunk; false when the backlog is full (the client sends faster than we can take). */
  push(chunk: Uint8Array): boolean {
    if (this.closed) return false;
    if (this.waiting >= MAX_BACKLOG) return false;
    this.waiting += 1;
    this.tail = this.tail.then(async () => {
      this.waiting -= 1;
      if (this.closed) return;
      await this.engine
        .sendAudio?.(this.id, chunk)
        .catch((error: unknown) => this.logger.warn({ err: error, session: this.id }, 'the live engine rejected audio'));
    });
    return true;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.tail;
    await this.engine.closeSession(this.id).catch((error: unknown) => this.logger.warn({ err: error, session: this.id }, 'closing a live session failed'));
    this.onClose(this);
  }
}

export interface LiveDependencies {
  engines: EngineRegistry<LiveEngine>;
  vox: VoxPlugin;
  outlets: SpeechOutlets;
  logger: Logger;
}

/**
 * The Live subsystem: sessions over the active Live engine (LIVE_CORTEX). Engine events go to the session's
 * sink; final transcripts enter the conversation; answers come back as audio through Vox (the `live`
 * outlet), or through the engine itself when it speaks (supportsOutput).
 */
export class LivePlugin {
  conversation: LiveConversation | undefined;
  private readonly sessions = new Map<string, { session: LiveSession; engine: LiveEngine; sink: LiveSink }>();

  constructor(private readonly deps: LiveDependencies) {
    deps.outlets.register(LIVE_INTERFACE, {
      audio: async (audio) => {
        const open = this.byPath(audio.interfacePath);
        open?.sink.event(
          liveEvent('AUDIO', { audio: audio.wav, text: audio.text, metadata: { url: audio.url, audio_duration_s: audio.durationS, lipsync: audio.lipsync } }),
        );
        return open !== undefined;
      },
      text: async (interfacePath, text) => {
        const open = this.byPath(interfacePath);
        open?.sink.answer(text);
        return open !== undefined;
      },
    });
  }

  get enabled(): boolean {
    return this.deps.engines.activeName() !== undefined;
  }

  activeEngine(): string | undefined {
    return this.deps.engines.activeName();
  }

  /**
   * Opens a session on the named (or active) engine; throws UnknownEngineError for an unknown one. Its
   * finals go to `conversation` when given (a socket bound to a web conversation), else into the chain.
   */
  async open(options: { engine?: string | undefined; sink: LiveSink; conversation?: LiveConversation | undefined } & OpenSessionOptions): Promise<LiveSession> {
    const engine = await this.deps.engines.get(options.engine);
    const session = new LiveSession(engine, (closed) => this.sessions.delete(closed.id), this.deps.logger);
    await engine.openSession(session.id, {
      sampleRate: options.sampleRate,
      ...(options.minSpeechMs === undefined ? {} : { minSpeechMs: options.minSpeechMs }),
      ...(options.anticipate === undefined ? {} : { anticipate: options.anticipate }),
    });
    this.sessions.set(session.id, { session, engine, sink: options.sink });
    void this.pump(session, engine, options.sink, options.conversation);
    return session;
  }

  /** Speaks an answer into a session: by the engine when it can, else through Vox. */
  async reply(sessionId: string, text: string): Promise<void> {
    const open = this.sessions.get(sessionId);
    if (!open) return;
    if (open.engine.supportsOutput && open.engine.sendText) {
      await open.engine.sendText(sessionId, text);
      return;
    }
    await this.deps.vox.speak({ text, interfacePath: livePath(sessionId), interfaceId: LIVE_INTERFACE });
  }

  async stop(): Promise<void> {
    await Promise.all([...this.sessions.values()].map(({ session }) => session.close()));
  }

  private byPath(interfacePath: string) {
    const [head, id] = interfacePath.split('/');
    return head === LIVE_INTERFACE && id ? this.sessions.get(id) : undefined;
  }

  private async pump(session: LiveSession, engine: LiveEngine, sink: LiveSink, own: LiveConversation | undefined): Promise<void> {
    try {
      for await (const event of engine.receiveEvents(session.id)) {
        sink.event(event);
        if (event.type === 'TRANSCRIPT' && !event.isFinal && event.text) (own ?? this.conversation)?.partial?.(session.id, event.text, event.metadata);
        if (event.type === 'TRANSCRIPT' && event.isFinal && event.text) {
          await (own ?? this.conversation)
            ?.submit(session.id, event.text, event.metadata)
            .catch((error: unknown) => this.deps.logger.warn({ err: error, session: session.id }, 'a live transcript could not enter the chain'));
        }
      }
    } catch (error) {
      this.deps.logger.warn({ err: error, session: session.id }, 'the live event stream failed');
      sink.event(liveEvent('ERROR', { detail: 'the live engine stopped' }));
    }
  }
}
