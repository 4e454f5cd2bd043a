import type { MatrixClient } from 'matrix-js-sdk';

/** Own event ids remembered, so a reply to one is recognised without asking the homeserver. */
const OWN_EVENTS_KEPT = 2000;
/** People whose names are kept; past it the cache starts again (a name also changes now and then). */
const NAMES_KEPT = 5000;

/**
 * What the interface needs to know about its rooms, asked of the homeserver once and kept: how many
 * people are in a room (more than two make it a group), which rooms are end-to-end encrypted, which events
 * are its own, and people's display names. It works without the room state a fresh sync would bring, so
 * it holds after a restart that resumed from a sync token.
 */
export class RoomFacts {
  private readonly members = new Map<string, Promise<number>>();
  private readonly names = new Map<string, Promise<string>>();
  private readonly own = new Set<string>();
  readonly encrypted = new Set<string>();

  constructor(
    private readonly client: MatrixClient,
    private readonly me: string,
  ) {}

  /** A room with more than the interface and one person; unknown counts as a group, which answers less. */
  async isGroup(roomId: string): Promise<boolean> {
    let count = this.members.get(roomId);
    if (!count) {
      count = this.client.getJoinedRoomMembers(roomId).then(
        (answer) => Object.keys(answer.joined).length,
        () => Number.POSITIVE_INFINITY,
      );
      this.members.set(roomId, count);
    }
    return (await count) > 2;
  }

  /** Someone joined or left: count again next time. */
  membersChanged(roomId: string): void {
    this.members.delete(roomId);
  }

  /** Marks a room encrypted; true the first time. */
  markEncrypted(roomId: string): boolean {
    if (this.encrypted.has(roomId)) return false;
    this.encrypted.add(roomId);
    return true;
  }

  rememberOwn(eventId: string): void {
    this.own.add(eventId);
    if (this.own.size > OWN_EVENTS_KEPT) this.own.delete(this.own.values().next().value as string);
  }

  /** Whether the interface sent this event (asked of the homeserver when it is not remembered). */
  async isOwn(roomId: string, eventId: string): Promise<boolean> {
    if (this.own.has(eventId)) return true;
    const event = await this.client.fetchRoomEvent(roomId, eventId).catch(() => undefined);
    return event?.sender === this.me;
  }

  /** A person's name as the room shows it, else their profile's, else their user id. */
  nameOf(roomId: string, userId: string): Promise<string> {
    const member = this.client.getRoom(roomId)?.getMember(userId)?.rawDisplayName;
    if (member && member !== userId) return Promise.resolve(member);
    let name = this.names.get(userId);
    if (!name) {
      if (this.names.size >= NAMES_KEPT) this.names.clear();
      name = this.client.getProfileInfo(userId).then(
        (profile) => profile.displayname || userId,
        () => userId,
      );
      this.names.set(userId, name);
    }
    return name;
  }
}
