import { ClientEvent, EventType, KnownMembership, type MatrixEvent } from 'matrix-js-sdk';
import type { Logger } from 'pino';
import { type Action, type ActionOrigin, type ChainPort, type ClockPort, submitWithVoice, type VoicePort } from '../../src/components/contract.ts';
import type { Live } from './connection.ts';
import { isVoice, mentions, relationsOf, textOf, type MessageContent } from './incoming.ts';
import { retrying } from './retrying.ts';
import { INTERFACE_ID, pathOf } from './paths.ts';
import type { RoomFacts } from './room-facts.ts';
import type { Typing } from './typing.ts';

export type AutoJoin = 'all' | 'trainers' | 'none';

export interface ReceiverOptions {
  live: Live;
  facts: RoomFacts;
  typing: Typing;
  clock: ClockPort;
  chain: ChainPort;
  voice: VoicePort;
  logger: Logger;
  autoJoin(): AutoJoin;
  isTrainer(userId: string): boolean;
  /** Delivers an answer the interface took itself (`awaitsReply`) through its own action. */
  answer(action: Action, origin: ActionOrigin): Promise<void>;
  /** A room turned out to be end-to-end encrypted (the first time). */
  encrypted(roomId: string): void;
}

/** The chain's limits on a sender's name and a message id. */
const MAX_NAME = 255;
const MAX_MESSAGE_ID = 128;

/**
 * What the interface does with the events of its sync: accepts invites (MATRIX_AUTO_JOIN), notes
 * encrypted rooms, and hands each new message of someone else to the chain as `matrix/<room>` or
 * `matrix/<room>/<thread root>`, with a read receipt, and typing while the answer is prepared. The events
 * of one room are handled one after the other, so a slow voice message is never overtaken.
 */
export class Receiver {
  private readonly queues = new Map<string, Promise<void>>();
  private displayName: string | undefined;
  private stopped = false;

  constructor(private readonly options: ReceiverOptions) {}

  /** Listens to the client; returns the function that stops listening. */
  attach(): () => void {
    const { client, identity } = this.options.live;
    client
      .getProfileInfo(identity.userId)
      .then((profile) => (this.displayName = profile.displayname))
      .catch(() => undefined);
    const onEvent = (event: MatrixEvent) => this.route(event);
    client.on(ClientEvent.Event, onEvent);
    return () => {
      this.stopped = true;
      client.off(ClientEvent.Event, onEvent);
    };
  }

  /** Waits for the events already taken to be handed over. */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.queues.values()]);
  }

  private route(event: MatrixEvent): void {
    const roomId = event.getRoomId();
    const me = this.options.live.identity.userId;
    if (!roomId) return;
    const type = event.getType();
    if (type === EventType.RoomMember) {
      this.options.facts.membersChanged(roomId);
      if (event.getStateKey() === me && event.getContent().membership === KnownMembership.Invite) this.enqueue(roomId, () => this.invited(roomId, event));
      return;
    }
    if (type === EventType.RoomEncryption || (type === EventType.RoomMessageEncrypted && event.getSender() !== me)) {
      if (this.options.facts.markEncrypted(roomId)) this.options.encrypted(roomId);
      return;
    }
    if (type !== EventType.RoomMessage || event.getSender() === me || !this.options.live.isLive()) return;
    this.enqueue(roomId, () => this.message(roomId, event));
  }

  private enqueue(roomId: string, work: () => Promise<void>): void {
    const next = (this.queues.get(roomId) ?? Promise.resolve())
      .then(() => (this.stopped ? undefined : work()))
      .catch((error: unknown) => this.options.logger.error({ err: error, room_id: roomId }, 'a Matrix event could not be handled'));
    this.queues.set(roomId, next);
    void next.finally(() => {
      if (this.queues.get(roomId) === next) this.queues.delete(roomId);
    });
  }

  private async invited(roomId: string, invite: MatrixEvent): Promise<void> {
    const { client } = this.options.live;
    if (client.getRoom(roomId)?.getMyMembership() === KnownMembership.Join) return;
    const inviter = invite.getSender() ?? '';
    const policy = this.options.autoJoin();
    if (policy === 'none' || (policy === 'trainers' && !this.options.isTrainer(inviter))) {
      this.options.logger.info({ room_id: roomId, inviter, policy }, 'a Matrix invite was not accepted (MATRIX_AUTO_JOIN)');
      return;
    }
    await retrying(this.options.clock, () => client.joinRoom(roomId));
    this.options.logger.info({ room_id: roomId, inviter }, 'joined a Matrix room on invitation');
  }

  private async message(roomId: string, event: MatrixEvent): Promise<void> {
    const { live, facts, clock, chain, voice, logger } = this.options;
    const { client, identity } = live;
    const content = event.getContent() as MessageContent;
    const relations = relationsOf(content);
    // Edits and notices (what bots send) are not new words to answer.
    if (relations.edit || content.msgtype === 'm.notice') return;
    const text = await textOf(client, clock, voice, content, logger);
    if (text === undefined) return;
    const sender = event.getSender() ?? '';
    const eventId = event.getId() ?? '';
    const path = pathOf({ roomId, ...(relations.threadRoot ? { threadRoot: relations.threadRoot } : {}) });
    const [group, replyToSelf, senderName] = await Promise.all([facts.isGroup(roomId), this.answersMe(roomId, relations), facts.nameOf(roomId, sender)]);
    const result = await submitWithVoice(
      {
        chain,
        voice,
        logger,
        send: (action, messageId) => this.options.answer(action, { interfaceId: INTERFACE_ID, interfacePath: path, messageId, senderId: sender, metadata: {} }),
        whileAnswering: (answered) => this.options.typing.during(roomId, answered),
      },
      {
        interfaceId: INTERFACE_ID,
        interfacePath: path,
        text,
        senderId: sender,
        senderName: senderName.slice(0, MAX_NAME),
        ...(eventId.length <= MAX_MESSAGE_ID ? { messageId: eventId } : {}),
        mentioned: mentions(content, identity.userId, this.displayName),
        replyToSelf,
        group,
        hints: isVoice(content) ? { animation: 'talk' } : {},
      },
      isVoice(content),
    );
    client.sendReadReceipt(event).catch((error: unknown) => logger.debug({ err: error, room_id: roomId }, 'read receipt failed'));
    if (result.status !== 'queued' && result.status !== 'command') logger.debug({ room_id: roomId, status: result.status }, 'a Matrix message is not answered');
  }

  /** A reply to one of its messages, or a message in a thread it started. */
  private async answersMe(roomId: string, relations: { threadRoot?: string; replyTo?: string }): Promise<boolean> {
    const { facts } = this.options;
    if (relations.replyTo && (await facts.isOwn(roomId, relations.replyTo))) return true;
    return relations.threadRoot !== undefined && (await facts.isOwn(roomId, relations.threadRoot));
  }
}
