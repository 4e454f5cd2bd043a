import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { Clock } from '../body/clock.ts';
import { AppError } from '../errors.ts';
import type { ListenerTrust, TrustPolicy } from '../trust.ts';
import { HelloSchema, type Hello } from './protocol.ts';

export const HELLO_TIMEOUT_MS = 5000;
export const UNAUTHORIZED_CLOSE_CODE = 4401;
/** Everything a client may send before its hello is accepted: a hello with a long asset list fits. */
export const PRE_HELLO_MAX_BYTES = 64 * 1024;
/** Sockets one address may have waiting for their hello at once; more are refused at the upgrade. */
export const MAX_PENDING_HELLOS_PER_ADDRESS = 16;

/** What the gate needs of a WebSocket; `ws` sockets match it. */
export interface GatedSocket {
  readyState: number;
  on(event: 'message', listener: (data: unknown, isBinary: boolean) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  off(event: 'message', listener: (data: unknown, isBinary: boolean) => void): unknown;
  close(code?: number, reason?: string): void;
  terminate(): void;
}

export type UpgradeRequest = Pick<FastifyRequest, 'ip' | 'headers' | 'protocol'> & { socket: Pick<Socket, 'on' | 'off'> };

export interface AdmittedSocket {
  /** The token's session, or a fresh id for a loopback client that sent none. */
  sessionId: string;
  hasAssets: string[];
  hello: Hello;
}

/**
 * The hello handshake every socket route shares. The first message must be a valid hello within the
 * timeout; a trusted upgrade (loopback with its own origin, or a key header) may omit the token.
 * Anything else closes with 4401 and nothing of the socket is read or kept afterwards. Before the hello
 * a socket may send at most PRE_HELLO_MAX_BYTES, counted on the TCP stream itself so a huge frame is
 * cut off while it arrives, not after it has been buffered.
 */
export class SocketGate {
  private open = 0;
  private readonly pending = new Map<string, number>();

  constructor(
    private readonly policy: TrustPolicy,
    private readonly listener: ListenerTrust,
    private readonly timeoutMs: number,
    private readonly clock: Clock,
  ) {}

  openCount(): number {
    return this.open;
  }

  /** Sockets admitted to the gate and still waiting for their hello (their timeout is running). */
  waitingCount(): number {
    let waiting = 0;
    for (const count of this.pending.values()) waiting += count;
    return waiting;
  }

  /** Why an upgrade is refused before it happens: a foreign Host or origin, or too many waiting sockets. */
  upgradeRefusal(request: Pick<FastifyRequest, 'ip' | 'headers' | 'protocol'>): AppError | undefined {
    const refusal = this.policy.refusal(request, this.listener);
    // A plain 401 is no refusal here: a remote client shows its token in the hello.
    if (refusal && refusal.statusCode === 403) return refusal;
    if ((this.pending.get(request.ip) ?? 0) < MAX_PENDING_HELLOS_PER_ADDRESS) return undefined;
    return new AppError(429, 'rate_limited', 'Too many sockets from this address are waiting for their hello');
  }

  /**
   * Admits a freshly upgraded socket. `onAdmitted` runs synchronously inside the hello's own message
   * event, so a listener it attaches receives every frame after the hello, with nothing buffered.
   */
  admit(socket: GatedSocket, request: UpgradeRequest, onAdmitted: (admitted: AdmittedSocket) => void): void {
    const trustedUpgrade = this.policy.refusal(request, this.listener) === undefined;
    const address = request.ip;
    this.pending.set(address, (this.pending.get(address) ?? 0) + 1);
    let settled = false;
    let received = 0;
    const { clock } = this;

    const settle = () => {
      if (settled) return false;
      settled = true;
      clock.clearTimeout(timer);
      socket.off('message', onMessage);
      request.socket.off('data', countBytes);
      const left = (this.pending.get(address) ?? 1) - 1;
      if (left > 0) this.pending.set(address, left);
      else this.pending.delete(address);
      return true;
    };
    const refuse = (reason: string) => {
      if (!settle()) return;
      socket.close(UNAUTHORIZED_CLOSE_CODE, reason);
      // A client that keeps sending after the refusal is cut off: nothing more is read or kept.
      request.socket.on('data', () => socket.terminate());
    };
    const countBytes = (chunk: Buffer) => {
      received += chunk.length;
      if (received > PRE_HELLO_MAX_BYTES && settle()) socket.terminate();
    };
    const onMessage = (data: unknown, isBinary: boolean) => {
      const hello = isBinary ? undefined : parseHello(data);
      if (!hello) return refuse('expected a hello message');
      const sessionId = hello.token ? this.policy.sessionForToken(hello.token) : trustedUpgrade ? randomUUID() : undefined;
      if (!sessionId) return refuse('unauthorized');
      settle();
      this.open += 1;
      socket.on('close', () => {
        this.open -= 1;
      });
      onAdmitted({ sessionId, hasAssets: hello.has_assets ?? [], hello });
    };
    const timer = clock.setTimeout(() => refuse('hello timeout'), this.timeoutMs);
    request.socket.on('data', countBytes);
    socket.on('message', onMessage);
    socket.on('close', settle);
  }
}

function parseHello(data: unknown): Hello | undefined {
  try {
    const text = Buffer.isBuffer(data) ? data.toString('utf8') : String(data);
    const result = HelloSchema.safeParse(JSON.parse(text));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}
