import type { Logger } from '../logging.ts';
import type {
  BodyMessage,
  ExpressionMessage,
  PreloadAnimationMessage,
  VrmAnimationMessage,
  VrmAudioMessage,
  VrmFaceMessage,
  VrmModelMessage,
} from './messages.ts';

/**
 * Where body state goes: the spec's eight transport methods. The body never writes to a socket; the web
 * UI socket hub and the body API socket hub implement this. Payloads are shared between transports and
 * must not be mutated.
 */
export interface BodyTransport {
  /** `exceptSession` already got the targeted copy of this command. */
  broadcastAnimation(payload: VrmAnimationMessage, exceptSession?: string): void;
  broadcastAudio(payload: VrmAudioMessage): void;
  broadcastFace(payload: VrmFaceMessage): void;
  broadcastModel(payload: VrmModelMessage): void;
  broadcastExpression(payload: ExpressionMessage): void;
  /** True when this transport holds the session and sent the payload. */
  sendToSession(sessionId: string, payload: BodyMessage): boolean;
  /** To one session, or to every session when `sessionId` is null. */
  preloadAsset(sessionId: string | null, payload: PreloadAnimationMessage): void;
  getConnectedSessions(): string[];
}

type Broadcast = Exclude<keyof BodyTransport, 'sendToSession' | 'getConnectedSessions'>;

/** The registered transports; one failing transport never stops the others or the body. */
export class TransportSet {
  private readonly transports = new Set<BodyTransport>();

  constructor(private readonly logger: Logger) {}

  add(transport: BodyTransport): () => void {
    this.transports.add(transport);
    return () => this.transports.delete(transport);
  }

  each<K extends Broadcast>(method: K, ...args: Parameters<BodyTransport[K]>): void {
    for (const transport of this.transports) {
      try {
        (transport[method] as (...values: Parameters<BodyTransport[K]>) => void)(...args);
      } catch (error) {
        this.logger.error({ err: error, method }, 'a body transport failed');
      }
    }
  }

  sendToSession(sessionId: string, payload: BodyMessage): boolean {
    let sent = false;
    for (const transport of this.transports) {
      try {
        sent = transport.sendToSession(sessionId, payload) || sent;
      } catch (error) {
        this.logger.error({ err: error }, 'a body transport failed');
      }
    }
    return sent;
  }

  sessions(): string[] {
    return [...new Set([...this.transports].flatMap((transport) => transport.getConnectedSessions()))];
  }
}
