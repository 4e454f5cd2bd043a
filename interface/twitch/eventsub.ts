import WebSocket from 'ws';
import { z } from 'zod';
import type { ClockPort, ComponentContext, ConnectionReport } from '../../src/components/contract.ts';

/** The longest wait between two attempts after the connection failed. */
const MAX_BACKOFF_MS = 60_000;
/** Message ids remembered to drop Twitch's redeliveries. */
const SEEN_IDS = 500;
/** Twitch closes a session whose subscriptions were not created within 10 s; a reconnecting socket gets as long. */
const WELCOME_TIMEOUT_MS = 10_000;

const FrameSchema = z.object({
  metadata: z.object({
    message_id: z.string(),
    message_type: z.string(),
    subscription_type: z.string().optional(),
  }),
  payload: z
    .object({
      session: z
        .object({
          id: z.string(),
          keepalive_timeout_seconds: z.number().nullable().optional(),
          reconnect_url: z.string().nullable().optional(),
        })
        .optional(),
      subscription: z.object({ type: z.string(), status: z.string().optional() }).passthrough().optional(),
      event: z.record(z.string(), z.unknown()).optional(),
    })
    .default({}),
});
type Frame = z.infer<typeof FrameSchema>;

export interface EventSubOptions {
  /** TWITCH_EVENTSUB_URL: where a new session starts. */
  url: string;
  /** A new session is open (not one that replaced its predecessor on session_reconnect): subscribe it. */
  onSession(sessionId: string): Promise<void>;
  onNotification(type: string, event: Record<string, unknown>): void;
  onRevocation(type: string, status: string): void;
  report(report: ConnectionReport): void;
  logger: ComponentContext['logger'];
  clock: ClockPort;
}

/** 0 s after a drop, then 1, 2, 4... 60 s for consecutive failures. */
export const backoffMs = (failures: number) => (failures <= 1 ? 0 : Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (failures - 2)));

/**
 * Twitch EventSub over WebSocket: session_welcome opens a session (subscribed by `onSession`);
 * session_keepalive and every other message prove the link alive, and silence past the session's keepalive
 * timeout is a dead link, replaced by a new session. session_reconnect opens the given URL first and closes
 * the old socket only once the new one is welcomed (its subscriptions move with it). Notifications are
 * handed on once each (Twitch may send one twice); revocations are reported.
 */
export class EventSub {
  private socket: WebSocket | undefined;
  /** A socket opened for session_reconnect, waiting for its welcome. */
  private successor: WebSocket | undefined;
  private keepalive: unknown;
  private retry: unknown;
  private failures = 0;
  /** The session's keepalive timeout, from its welcome. */
  private keepaliveMs = 10_000;
  private stopped = true;
  private readonly seen = new Set<string>();

  constructor(private readonly options: EventSubOptions) {}

  start(): void {
    this.stopped = false;
    this.open(this.options.url, false);
  }

  stop(): void {
    this.stopped = true;
    const { clock } = this.options;
    clock.clearTimeout(this.retry);
    clock.clearTimeout(this.keepalive);
    for (const socket of [this.socket, this.successor]) this.discard(socket);
    this.socket = undefined;
    this.successor = undefined;
  }

  private open(url: string, reconnecting: boolean): void {
    if (!reconnecting) this.options.report({ state: 'connecting' });
    let socket: WebSocket;
    try {
      socket = new WebSocket(url);
    } catch (error) {
      this.lost(`the EventSub address cannot be used: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    if (reconnecting) this.successor = socket;
    else this.socket = socket;
    socket.on('message', (data) => this.receive(socket, data.toString()));
    socket.on('close', (code, reason) => this.closed(socket, code, reason.toString()));
    // A 'close' follows every error; this only keeps it from being thrown.
    socket.on('error', (error) => this.options.logger.debug({ err: error }, 'the Twitch EventSub connection failed'));
    if (reconnecting) {
      const timer = this.options.clock.setTimeout(() => {
        if (this.successor === socket) this.lost('the reconnect URL sent no welcome');
      }, WELCOME_TIMEOUT_MS);
      socket.once('close', () => this.options.clock.clearTimeout(timer));
    }
  }

  private receive(socket: WebSocket, text: string): void {
    if (socket !== this.socket && socket !== this.successor) return;
    let frame: Frame;
    try {
      frame = FrameSchema.parse(JSON.parse(text));
    } catch {
      this.options.logger.warn('Twitch EventSub sent a message that is not an EventSub message');
      return;
    }
    if (socket === this.socket && frame.metadata.message_type !== 'session_welcome') this.alive();
    switch (frame.metadata.message_type) {
      case 'session_welcome':
        this.welcome(socket, frame);
        break;
      case 'session_reconnect': {
        const url = frame.payload.session?.reconnect_url;
        if (url && socket === this.socket && !this.successor) this.open(url, true);
        break;
      }
      case 'notification':
        this.notification(frame);
        break;
      case 'revocation': {
        const subscription = frame.payload.subscription;
        if (subscription) this.options.onRevocation(subscription.type, subscription.status ?? 'revoked');
        break;
      }
    }
  }

  private welcome(socket: WebSocket, frame: Frame): void {
    const session = frame.payload.session;
    if (!session) return;
    this.keepaliveMs = (session.keepalive_timeout_seconds ?? 10) * 1000;
    if (socket === this.successor) {
      // The new socket carries the old session's subscriptions: only now may the old one go.
      const old = this.socket;
      this.socket = socket;
      this.successor = undefined;
      this.discard(old);
      this.alive();
      this.options.logger.info('Twitch EventSub moved to the reconnect URL');
      return;
    }
    if (socket !== this.socket) return;
    this.alive();
    this.options.report({ state: 'connecting', detail: 'subscribing' });
    this.options
      .onSession(session.id)
      .then(() => {
        if (socket !== this.socket) return;
        this.failures = 0;
      })
      .catch((error: unknown) => {
        if (socket !== this.socket) return;
        this.options.logger.error({ err: error }, 'Twitch EventSub subscriptions could not be created');
        this.lost(`subscribing failed: ${error instanceof Error ? error.message : String(error)}`);
      });
  }

  /** Any message from the current socket resets the keepalive deadline (Twitch's rule). */
  private alive(): void {
    const { clock } = this.options;
    clock.clearTimeout(this.keepalive);
    const socket = this.socket;
    this.keepalive = clock.setTimeout(() => {
      if (socket === this.socket) this.lost('no keepalive within the session keepalive timeout');
    }, this.keepaliveMs);
  }

  private notification(frame: Frame): void {
    const { message_id: id, subscription_type: type } = frame.metadata;
    if (this.seen.has(id)) return;
    this.seen.add(id);
    if (this.seen.size > SEEN_IDS) this.seen.delete(this.seen.values().next().value as string);
    if (type && frame.payload.event) this.options.onNotification(type, frame.payload.event);
  }

  private closed(socket: WebSocket, code: number, reason: string): void {
    if (socket === this.successor) {
      this.successor = undefined;
      return;
    }
    if (socket !== this.socket || this.stopped) return;
    this.lost(`closed (${code}${reason ? ` ${reason}` : ''})`);
  }

  /** The session is gone: a new one is opened at TWITCH_EVENTSUB_URL after the back-off. */
  private lost(reason: string): void {
    if (this.stopped) return;
    const { clock, logger, report } = this.options;
    clock.clearTimeout(this.keepalive);
    for (const socket of [this.socket, this.successor]) this.discard(socket);
    this.socket = undefined;
    this.successor = undefined;
    this.failures += 1;
    const wait = backoffMs(this.failures);
    logger.info({ reason, retry_in_ms: wait }, 'reconnecting to Twitch EventSub');
    report({ state: 'disconnected', detail: `${reason}; reconnecting${wait > 0 ? ` in ${Math.round(wait / 1000)} s` : ''}` });
    clock.clearTimeout(this.retry);
    this.retry = clock.setTimeout(() => this.open(this.options.url, false), wait);
  }

  private discard(socket: WebSocket | undefined): void {
    if (!socket) return;
    socket.removeAllListeners('message');
    socket.removeAllListeners('close');
    socket.on('close', () => undefined);
    if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
    else socket.close(1000);
  }
}
