import type { ClientMessage, ServerMessage } from '../protocol.ts';
import { session } from './session.ts';

const UNAUTHORIZED = 4401;
const MIN_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 10_000;

export interface LiveSocketHooks {
  /** The URLs and hashes already in the browser's cache, for the hello. */
  hasAssets(): Promise<string[]>;
  onMessage(message: ServerMessage): void;
  /** After the hello of every connection but the first (the page then re-syncs what it missed). */
  onReconnected(): void;
  onStatus(connected: boolean): void;
}

/**
 * The `/ws` connection: hello with the session token, then messages to the hooks. Reconnects with
 * exponential backoff and jitter; a 4401 close (token expired after a server restart) renews the token.
 */
export class LiveSocket {
  private socket: WebSocket | undefined;
  private attempts = 0;
  private connectedOnce = false;
  private renewToken = false;

  constructor(private readonly hooks: LiveSocketHooks) {}

  start(): void {
    void this.connect();
  }

  /** False when the socket is not open (the caller shows that the message was not sent). */
  send(message: ClientMessage): boolean {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  private async connect(): Promise<void> {
    let token: string | undefined;
    let hasAssets: string[] = [];
    try {
      [token, hasAssets] = await Promise.all([session(this.renewToken).then((grant) => grant.token), this.hooks.hasAssets()]);
    } catch {
      this.retry();
      return;
    }
    this.renewToken = false;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const socket = new WebSocket(`${scheme}://${location.host}/ws`);
    this.socket = socket;
    socket.addEventListener('open', () => {
      socket.send(JSON.stringify({ type: 'hello', token, has_assets: hasAssets } satisfies ClientMessage));
      this.attempts = 0;
      this.hooks.onStatus(true);
      if (this.connectedOnce) this.hooks.onReconnected();
      this.connectedOnce = true;
    });
    socket.addEventListener('message', (event) => {
      if (typeof event.data !== 'string') return;
      let message: ServerMessage;
      try {
        message = JSON.parse(event.data) as ServerMessage;
      } catch {
        return;
      }
      this.hooks.onMessage(message);
    });
    socket.addEventListener('close', (event) => {
      this.hooks.onStatus(false);
      if (event.code === UNAUTHORIZED) this.renewToken = true;
      this.retry();
    });
  }

  private retry(): void {
    const base = Math.min(MAX_BACKOFF_MS, MIN_BACKOFF_MS * 2 ** this.attempts);
    this.attempts += 1;
    setTimeout(() => void this.connect(), base / 2 + Math.random() * (base / 2));
  }
}
