import type { RawData, WebSocket } from 'ws';
import type { BodyServer } from '../body/body-server.ts';
import type {
  BodyMessage,
  ExpressionMessage,
  PreloadAnimationMessage,
  VrmAnimationMessage,
  VrmAudioMessage,
  VrmFaceMessage,
  VrmModelMessage,
} from '../body/messages.ts';
import type { BodyTransport } from '../body/transports.ts';
import type { Logger } from '../logging.ts';
import { encodeFrame } from './frames.ts';
import { parseClientFrame, type ClientMessage } from './protocol.ts';
import type { SocketGate, UpgradeRequest } from './socket-gate.ts';
import { TokenBucket } from './token-bucket.ts';
import type { SocketChat, SocketChatSession } from './web-chat-sockets.ts';

/** Messages a socket may send in a burst, and per second after it. */
const BURST_MESSAGES = 40;
const MESSAGES_PER_SECOND = 20;
/** A client this far behind is dropped: state it cannot keep up with is no use to it. */
export const MAX_BUFFERED_BYTES = 8 * 1_048_576;
const POLICY_VIOLATION = 1008;

interface Client {
  socket: WebSocket;
  sessionId: string;
  chat?: SocketChatSession;
}

/**
 * Adapts WebSockets to a body transport: admits each socket with the hello handshake, welcomes it with
 * the body's state, then fans every broadcast out as one pre-encoded frame. Serves `/ws` and `/api/body/ws`.
 */
export class SocketHub implements BodyTransport {
  private readonly clients = new Set<Client>();
  private readonly sessions = new Map<string, Set<Client>>();

  constructor(
    private readonly body: BodyServer,
    private readonly gate: SocketGate,
    private readonly logger: Logger,
    /** The web chat, on `/ws` only; without it `chat` messages are refused. */
    private readonly chat?: SocketChat,
  ) {}

  /** Takes over a freshly upgraded socket. Nothing is sent to it before its hello. */
  accept(socket: WebSocket, request: UpgradeRequest): void {
    socket.on('error', (error) => this.logger.debug({ err: error }, 'socket error'));
    this.gate.admit(socket, request, (admitted) => {
      const client: Client = { socket, sessionId: admitted.sessionId };
      const budget = new TokenBucket(BURST_MESSAGES, MESSAGES_PER_SECOND, () => this.body.clock.now());
      socket.on('message', (data, isBinary) => {
        if (budget.take()) this.receive(client, data, isBinary);
        else socket.close(POLICY_VIOLATION, 'too many messages');
      });
      socket.on('close', () => this.remove(client));
      this.add(client);
      this.welcome(client, admitted.hasAssets);
      this.openChat(client);
    });
  }

  broadcastAnimation(payload: VrmAnimationMessage, exceptSession?: string): void {
    this.broadcast(payload, exceptSession);
  }

  broadcastAudio(payload: VrmAudioMessage): void {
    this.broadcast(payload);
  }

  broadcastFace(payload: VrmFaceMessage): void {
    this.broadcast(payload);
  }

  broadcastModel(payload: VrmModelMessage): void {
    this.broadcast(payload);
  }

  broadcastExpression(payload: ExpressionMessage): void {
    this.broadcast(payload);
  }

  sendToSession(sessionId: string, payload: BodyMessage): boolean {
    const clients = this.sessions.get(sessionId);
    if (!clients) return false;
    const frame = encodeFrame(payload);
    for (const client of clients) this.write(client, frame);
    return true;
  }

  preloadAsset(sessionId: string | null, payload: PreloadAnimationMessage): void {
    if (sessionId === null) this.broadcast(payload);
    else this.sendToSession(sessionId, payload);
  }

  /** Sockets past their hello. */
  get clientCount(): number {
    return this.clients.size;
  }

  getConnectedSessions(): string[] {
    return [...this.sessions.keys()];
  }

  private broadcast(payload: object, exceptSession?: string): void {
    if (this.clients.size === 0) return;
    const frame = encodeFrame(payload);
    for (const client of this.clients) if (client.sessionId !== exceptSession) this.write(client, frame);
  }

  private write(client: Client, frame: Buffer): void {
    const { socket } = client;
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.logger.warn({ session: client.sessionId }, 'dropping a socket that cannot keep up');
      // A close frame would wait behind all it has not read; ending the connection frees its buffer now.
      socket.terminate();
      return;
    }
    socket.send(frame, { binary: false });
  }

  private welcome(client: Client, hasAssets: string[]): void {
    for (const message of this.body.welcomeMessages(hasAssets)) this.write(client, encodeFrame(message));
  }

  private openChat(client: Client): void {
    if (!this.chat) return;
    client.chat = this.chat.open({ bodySessionId: client.sessionId, send: (frame) => this.write(client, encodeFrame(frame)) });
  }

  private receive(client: Client, data: RawData, isBinary: boolean): void {
    try {
      const parsed = parseClientFrame(data, isBinary);
      if (parsed.ok) this.handle(client, parsed.message);
      else this.write(client, encodeFrame(parsed.error));
    } catch (error) {
      this.logger.error({ err: error }, 'handling a socket message failed');
    }
  }

  private handle(client: Client, message: ClientMessage): void {
    switch (message.type) {
      case 'hello':
        this.welcome(client, message.has_assets ?? []);
        return;
      case 'animation_complete':
        this.body.completeAnimation(message.file, message.state);
        return;
      case 'ping':
        this.write(client, encodeFrame({ type: 'pong' }));
        return;
      case 'chat':
      case 'voice':
      case 'tts_heard':
        if (client.chat) client.chat.receive(message);
        else this.write(client, encodeFrame({ type: 'error', code: 'invalid_message', message: 'chat is answered on /ws only' }));
        return;
    }
  }

  private add(client: Client): void {
    this.clients.add(client);
    const clients = this.sessions.get(client.sessionId) ?? new Set();
    clients.add(client);
    this.sessions.set(client.sessionId, clients);
  }

  private remove(client: Client): void {
    client.chat?.close();
    this.clients.delete(client);
    const clients = this.sessions.get(client.sessionId);
    clients?.delete(client);
    if (clients?.size === 0) this.sessions.delete(client.sessionId);
  }
}
