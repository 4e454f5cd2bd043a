import WebSocket from 'ws';
import type { ClockPort, ComponentContext, ConnectionReport } from '../../src/components/contract.ts';

/** The gateway's opcodes (Discord v10's, which Fluxer keeps). */
export const Op = {
  Dispatch: 0,
  Heartbeat: 1,
  Identify: 2,
  Resume: 6,
  Reconnect: 7,
  InvalidSession: 9,
  Hello: 10,
  HeartbeatAck: 11,
} as const;

const REFUSED_TOKEN = 'the server refused the token; set a valid FLUXER_BOT_TOKEN';
/** Close codes after which reconnecting cannot help: a refused token, a bad version or intents. */
const FATAL_CLOSES: Record<number, string> = {
  4004: REFUSED_TOKEN,
  4010: 'the gateway refused the shard',
  4011: 'the gateway asks for sharding',
  4012: 'the gateway refused the API version; check FLUXER_API_VERSION',
  4013: 'the gateway refused the intents',
  4014: 'the gateway refused a privileged intent (message content) the bot is not granted',
};
/** Close codes after which the session cannot be resumed: identify again. */
const SESSION_ENDING_CLOSES = new Set([4007, 4009]);
/** The longest wait between two attempts. */
const MAX_BACKOFF_MS = 60_000;
/** GUILDS, GUILD_MESSAGES, DIRECT_MESSAGES and MESSAGE_CONTENT. */
export const INTENTS = (1 << 0) | (1 << 9) | (1 << 12) | (1 << 15);

interface Frame {
  op: number;
  d?: unknown;
  s?: number | null;
  t?: string | null;
}

export interface GatewayUser {
  id: string;
  username: string;
}

export interface GatewayOptions {
  /** The gateway address for a new session (FLUXER_GATEWAY_URL, or what `GET /gateway/bot` names). */
  url(): Promise<string>;
  token: string;
  version: string;
  onDispatch(type: string, data: unknown): void;
  report(report: ConnectionReport): void;
  logger: ComponentContext['logger'];
  /** The host's clock, which times the heartbeats and the reconnection back-off. */
  clock: ClockPort;
  /** The heartbeat's jitter, in [0, 1). */
  random?: () => number;
}

/**
 * The wait before reconnection attempt `failures` (consecutive attempts that did not reach READY or
 * RESUMED): the first at once, as a dropped connection should resume without delay, then 1, 2, 4... 60 s.
 */
export const backoffMs = (failures: number) => (failures <= 1 ? 0 : Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (failures - 2)));

/** `url` with the version and encoding the gateway expects (`?v=1&encoding=json`). */
function gatewayAddress(url: string, version: string): string {
  const address = new URL(url);
  address.searchParams.set('v', version);
  address.searchParams.set('encoding', 'json');
  return address.href;
}

/**
 * The WebSocket gateway's state machine: HELLO, then IDENTIFY (or RESUME with the session id and the
 * last sequence), heartbeats at the server's interval (the first after a random part of it), a missing
 * ACK taken as a dead link, RECONNECT and INVALID_SESSION obeyed, and reconnection with back-off. Every
 * dispatch is handed on once: a sequence already handled (replayed after a resume) is skipped.
 */
export class Gateway {
  private socket: WebSocket | undefined;
  private sessionId: string | undefined;
  private resumeUrl: string | undefined;
  private sequence: number | null = null;
  private heartbeat: unknown;
  private retry: unknown;
  private acknowledged = true;
  private heartbeatSentAt = 0;
  private failures = 0;
  private stopped = true;
  /** Who the bot is, from READY. */
  user: GatewayUser | undefined;
  /** The time from the last heartbeat to its ACK, once one came. */
  latencyMs: number | undefined;

  private readonly clock: ClockPort;

  constructor(private readonly options: GatewayOptions) {
    this.clock = options.clock;
  }

  start(): void {
    this.stopped = false;
    void this.connect();
  }

  stop(): void {
    this.stopped = true;
    this.clock.clearTimeout(this.retry);
    const socket = this.detach();
    socket?.close(1000);
  }

  private async connect(): Promise<void> {
    const { report, logger } = this.options;
    const resuming = this.sessionId !== undefined && this.sequence !== null;
    report({ state: 'connecting', ...(resuming ? { detail: 'resuming the session' } : {}) });
    let address: string;
    try {
      address = gatewayAddress(resuming && this.resumeUrl ? this.resumeUrl : await this.options.url(), this.options.version);
    } catch (error) {
      if (this.stopped) return;
      if ((error as { status?: unknown }).status === 401) {
        logger.error({ err: error }, `Fluxer: ${REFUSED_TOKEN}`);
        this.options.report({ state: 'disconnected', detail: `${REFUSED_TOKEN} (401)` });
        return;
      }
      logger.warn({ err: error }, 'the Fluxer gateway address could not be read');
      this.scheduleReconnect(`no gateway address: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    if (this.stopped) return;
    const socket = new WebSocket(address);
    this.socket = socket;
    socket.on('message', (data) => this.receive(socket, data.toString()));
    socket.on('close', (code, reason) => this.closed(socket, code, reason.toString()));
    // A 'close' follows every error; this only keeps it from being thrown.
    socket.on('error', (error) => logger.debug({ err: error }, 'the Fluxer gateway connection failed'));
  }

  private send(socket: WebSocket, frame: Frame): void {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
  }

  private receive(socket: WebSocket, text: string): void {
    if (socket !== this.socket) return;
    let frame: Frame;
    try {
      frame = JSON.parse(text) as Frame;
    } catch {
      this.options.logger.warn('the Fluxer gateway sent a frame that is not JSON');
      return;
    }
    switch (frame.op) {
      case Op.Hello:
        this.hello(socket, (frame.d as { heartbeat_interval?: number } | undefined)?.heartbeat_interval);
        break;
      case Op.HeartbeatAck:
        this.acknowledged = true;
        this.latencyMs = this.clock.now() - this.heartbeatSentAt;
        break;
      case Op.Heartbeat:
        this.send(socket, { op: Op.Heartbeat, d: this.sequence });
        break;
      case Op.Reconnect:
        this.drop('the gateway asked to reconnect');
        break;
      case Op.InvalidSession:
        // d: whether the session may still be resumed; if not, the next connection identifies afresh.
        if (frame.d !== true) this.forgetSession();
        this.drop('the gateway invalidated the session');
        break;
      case Op.Dispatch:
        this.dispatch(frame);
        break;
    }
  }

  private hello(socket: WebSocket, interval: number | undefined): void {
    if (!interval || interval <= 0) {
      this.drop('the gateway sent HELLO without a heartbeat interval');
      return;
    }
    this.acknowledged = true;
    this.latencyMs = undefined;
    this.beat(socket, interval, interval * (this.options.random ?? Math.random)());
    if (this.sessionId !== undefined && this.sequence !== null) {
      this.send(socket, { op: Op.Resume, d: { token: this.options.token, session_id: this.sessionId, seq: this.sequence } });
    } else {
      this.send(socket, {
        op: Op.Identify,
        d: { token: this.options.token, intents: INTENTS, properties: { os: process.platform, browser: 'anima', device: 'anima' } },
      });
    }
  }

  /** The next heartbeat after `delay`; a heartbeat whose predecessor was never acknowledged drops the link. */
  private beat(socket: WebSocket, interval: number, delay: number): void {
    this.heartbeat = this.clock.setTimeout(() => {
      if (socket !== this.socket) return;
      if (!this.acknowledged) {
        this.drop('no heartbeat ACK');
        return;
      }
      this.acknowledged = false;
      this.heartbeatSentAt = this.clock.now();
      this.send(socket, { op: Op.Heartbeat, d: this.sequence });
      this.beat(socket, interval, interval);
    }, delay);
  }

  private dispatch(frame: Frame): void {
    if (typeof frame.s === 'number') {
      // A resumed session replays what was missed; an event already handled is not handled again.
      if (this.sequence !== null && frame.s <= this.sequence) return;
      this.sequence = frame.s;
    }
    if (frame.t === 'READY') {
      const ready = frame.d as { session_id: string; resume_gateway_url?: string; user: GatewayUser };
      this.sessionId = ready.session_id;
      this.resumeUrl = ready.resume_gateway_url;
      this.user = ready.user;
      this.connected();
    } else if (frame.t === 'RESUMED') {
      this.connected();
    }
    if (frame.t) this.options.onDispatch(frame.t, frame.d);
  }

  private connected(): void {
    this.failures = 0;
    this.options.report({ state: 'connected', ...(this.user ? { detail: `as ${this.user.username}` } : {}) });
  }

  private forgetSession(): void {
    this.sessionId = undefined;
    this.resumeUrl = undefined;
    this.sequence = null;
  }

  private detach(): WebSocket | undefined {
    const socket = this.socket;
    this.socket = undefined;
    this.clock.clearTimeout(this.heartbeat);
    socket?.removeAllListeners('message');
    return socket;
  }

  /** Closes the link ourselves (keeping the session for a resume) and reconnects. */
  private drop(reason: string): void {
    this.options.logger.info({ reason }, 'reconnecting to the Fluxer gateway');
    // terminate: a dead link would hold a polite close for its whole timeout.
    const socket = this.detach();
    socket?.on('error', () => undefined).terminate();
    this.scheduleReconnect(reason);
  }

  private closed(socket: WebSocket, code: number, reason: string): void {
    if (socket !== this.socket || this.stopped) return;
    this.detach();
    const fatal = FATAL_CLOSES[code];
    if (fatal) {
      this.options.logger.error({ code, reason }, `Fluxer: ${fatal}`);
      this.forgetSession();
      this.options.report({ state: 'disconnected', detail: `${fatal} (close ${code})` });
      return;
    }
    if (SESSION_ENDING_CLOSES.has(code)) this.forgetSession();
    this.scheduleReconnect(`the gateway closed (${code}${reason ? ` ${reason}` : ''})`);
  }

  private scheduleReconnect(reason: string): void {
    if (this.stopped) return;
    this.failures += 1;
    const wait = backoffMs(this.failures);
    this.options.report({ state: 'disconnected', detail: wait > 0 ? `${reason}; retrying in ${wait / 1000} s` : `${reason}; reconnecting` });
    this.clock.clearTimeout(this.retry);
    this.retry = this.clock.setTimeout(() => void this.connect(), wait);
  }
}
