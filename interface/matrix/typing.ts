import type { MatrixClient } from 'matrix-js-sdk';
import type { Logger } from 'pino';
import type { ClockPort } from '../../src/components/contract.ts';

/** How long one typing notification lasts on the homeserver; it is renewed before it runs out. */
const TYPING_MS = 30_000;
const RENEW_MS = 25_000;

/**
 * The typing notification of each room while answers are being prepared there: on with the first answer,
 * renewed while any runs, off after the last. Matrix has one typing flag per room, threads included.
 */
export class Typing {
  private readonly rooms = new Map<string, { answers: number; timer: unknown }>();

  constructor(
    private readonly client: MatrixClient,
    private readonly logger: Logger,
    private readonly clock: ClockPort,
  ) {}

  /** Shows typing in `roomId` until `answered` settles. */
  during(roomId: string, answered: Promise<unknown>): void {
    const room = this.rooms.get(roomId);
    if (room) room.answers += 1;
    else {
      this.rooms.set(roomId, { answers: 1, timer: undefined });
      this.renew(roomId);
    }
    void answered
      .catch(() => undefined)
      .finally(() => {
        const current = this.rooms.get(roomId);
        if (!current) return;
        current.answers -= 1;
        if (current.answers > 0) return;
        this.clock.clearTimeout(current.timer);
        this.rooms.delete(roomId);
        this.send(roomId, false);
      });
  }

  /** Stops renewing (the client is going away; the homeserver lets the flags run out). */
  stop(): void {
    for (const room of this.rooms.values()) this.clock.clearTimeout(room.timer);
    this.rooms.clear();
  }

  /** Sends typing now and again every RENEW_MS while the room has answers in preparation. */
  private renew(roomId: string): void {
    const room = this.rooms.get(roomId);
    if (!room) return;
    this.send(roomId, true);
    room.timer = this.clock.setTimeout(() => this.renew(roomId), RENEW_MS);
  }

  private send(roomId: string, typing: boolean): void {
    this.client
      .sendTyping(roomId, typing, TYPING_MS)
      .catch((error: unknown) => this.logger.debug({ err: error, room_id: roomId }, 'typing notification failed'));
  }
}
