import type { MatrixClient } from 'matrix-js-sdk';
import type { Logger } from 'pino';

/** How long one typing notification lasts on the homeserver; it is renewed before it runs out. */
const TYPING_MS = 30_000;
const RENEW_MS = 25_000;

/**
 * The typing notification of each room while answers are being prepared there: on with the first answer,
 * renewed while any runs, off after the last. Matrix has one typing flag per room, threads included.
 */
export class Typing {
  private readonly rooms = new Map<string, { answers: number; timer: NodeJS.Timeout }>();

  constructor(
    private readonly client: MatrixClient,
    private readonly logger: Logger,
  ) {}

  /** Shows typing in `roomId` until `answered` settles. */
  during(roomId: string, answered: Promise<unknown>): void {
    const room = this.rooms.get(roomId);
    if (room) room.answers += 1;
    else {
      this.send(roomId, true);
      this.rooms.set(roomId, { answers: 1, timer: setInterval(() => this.send(roomId, true), RENEW_MS) });
    }
    void answered
      .catch(() => undefined)
      .finally(() => {
        const current = this.rooms.get(roomId);
        if (!current) return;
        current.answers -= 1;
        if (current.answers > 0) return;
        clearInterval(current.timer);
        this.rooms.delete(roomId);
        this.send(roomId, false);
      });
  }

  /** Stops renewing (the client is going away; the homeserver lets the flags run out). */
  stop(): void {
    for (const room of this.rooms.values()) clearInterval(room.timer);
    this.rooms.clear();
  }

  private send(roomId: string, typing: boolean): void {
    this.client
      .sendTyping(roomId, typing, TYPING_MS)
      .catch((error: unknown) => this.logger.debug({ err: error, room_id: roomId }, 'typing notification failed'));
  }
}
