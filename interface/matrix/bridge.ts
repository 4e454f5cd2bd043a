import { join } from 'node:path';
import type { ActionOrigin } from '../../src/components/contract.ts';
import { MEDIA_ACTION, MediaPayloadSchema, MessagePayloadSchema } from './actions.ts';
import { MatrixConnection, type Live } from './connection.ts';
import { conversationOf, INTERFACE_ID, type Conversation } from './paths.ts';
import { Receiver } from './receiver.ts';
import { RoomFacts } from './room-facts.ts';
import { routeSdkLogs } from './sdk-log.ts';
import { Sender } from './sender.ts';
import { SessionFile } from './session-file.ts';
import { settingsOf, voxFolderOf, type MatrixContext } from './settings.ts';
import { Typing } from './typing.ts';

/**
 * One Matrix account at work: its connection, what it hears (Receiver) and what it posts (Sender). The
 * interface makes a new one whenever the account's variables change.
 */
export class Bridge {
  private readonly connection: MatrixConnection;
  private session: { sender: Sender; facts: RoomFacts } | undefined;
  private receiver: Receiver | undefined;

  constructor(private readonly context: MatrixContext) {
    const settings = settingsOf(context);
    routeSdkLogs(context.logger);
    this.connection = new MatrixConnection({
      settings,
      file: new SessionFile(join(context.paths.backups, INTERFACE_ID, 'session.json'), { homeserver: settings.homeserver, userId: settings.userId }),
      logger: context.logger,
      clock: context.services.clock,
      report: (report) => context.reportConnection(report),
      attach: (live) => this.attach(live),
      note: () => this.note(),
    });
  }

  start(): void {
    const { userId, password, accessToken } = settingsOf(this.context);
    // The registry starts the interface only once these are set; they may be cleared while it runs.
    if (userId === '' || (password === '' && accessToken === '')) {
      this.context.reportConnection({ state: 'disconnected', detail: 'MATRIX_USER_ID and MATRIX_PASSWORD or MATRIX_ACCESS_TOKEN are needed' });
      return;
    }
    this.connection.start();
  }

  async stop(): Promise<void> {
    this.connection.stop();
    await this.receiver?.drain();
  }

  /** `message_matrix` and `send_media_matrix`, to a room or a thread. */
  async deliver(type: string, payload: Record<string, unknown>, origin: ActionOrigin): Promise<void> {
    const session = this.session;
    if (!session) throw new Error('Matrix is not connected');
    const path = String(payload.interface_path);
    const conversation = conversationOf(path);
    if (!conversation) throw new Error(`not a Matrix conversation: ${path}`);
    const replyTo = await this.replyTarget(conversation, path, origin, session.facts);
    if (type === MEDIA_ACTION) {
      await session.sender.media(conversation, MediaPayloadSchema.parse(payload).file_url, replyTo);
      return;
    }
    const message = MessagePayloadSchema.parse(payload);
    await session.sender.text(conversation, message.text, replyTo);
    if (message.media) await session.sender.media(conversation, message.media);
  }

  /**
   * The message an answer points at: in a thread (its fallback for clients without threads) and in a
   * group, where several conversations interleave; not in a chat with one person.
   */
  private async replyTarget(conversation: Conversation, path: string, origin: ActionOrigin, facts: RoomFacts): Promise<string | undefined> {
    if (origin.interfacePath !== path || !origin.messageId.startsWith('$')) return undefined;
    return conversation.threadRoot !== undefined || (await facts.isGroup(conversation.roomId)) ? origin.messageId : undefined;
  }

  private attach(live: Live): () => void {
    const { context } = this;
    const { client, identity } = live;
    const facts = new RoomFacts(client, identity.userId);
    const typing = new Typing(client, context.logger, context.services.clock);
    const receiver = new Receiver({
      live,
      facts,
      typing,
      clock: context.services.clock,
      chain: context.services.chain,
      voice: context.services.voice,
      logger: context.logger,
      autoJoin: () => context.config.get('MATRIX_AUTO_JOIN'),
      isTrainer: (userId) => context.config.get('TRAINER_IDS').includes(`${INTERFACE_ID}:${userId}`),
      answer: (action, origin) => this.deliver(action.type, action.payload, origin),
      encrypted: (roomId) => {
        context.logger.warn(
          { room_id: roomId },
          'this Matrix room is end-to-end encrypted: Anima cannot read or answer there (the interface has no end-to-end encryption); invite it to an unencrypted room',
        );
        this.connection.refresh();
      },
    });
    this.receiver = receiver;
    this.session = {
      facts,
      sender: new Sender({ client, clock: context.services.clock, facts, voice: context.services.voice, voxFolder: () => voxFolderOf(context) }),
    };
    const detach = receiver.attach();
    return () => {
      detach();
      typing.stop();
      this.session = undefined;
    };
  }

  private note(): string | undefined {
    const count = this.session?.facts.encrypted.size ?? 0;
    if (count === 0) return undefined;
    return `${count} end-to-end encrypted room${count === 1 ? '' : 's'} not answered (encryption is not supported)`;
  }
}
