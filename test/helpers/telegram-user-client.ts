import type { PrivateMessage, UserAccountClient, UserAccountSettings } from '../../interface_dev/telegram_user/client.ts';

/**
 * A stand-in for the GramJS client of the user-account interface. MTProto (encrypted sessions with
 * Telegram's data centres) has no faithful local server, so the interface is tested through its client
 * seam (`UserAccountClient`): this records what it sends and delivers private messages as GramJS would.
 */
export class StandInUserClient implements UserAccountClient {
  readonly sent: Array<{ peerId: string; text: string }> = [];
  readonly typing: string[] = [];
  connected = false;
  private handler: ((message: PrivateMessage) => void) | undefined;
  private readonly waiters: Array<() => void> = [];

  constructor(
    readonly settings: UserAccountSettings,
    private readonly refuse: boolean,
  ) {}

  async connect(): Promise<string> {
    if (this.refuse) throw new Error('Telegram refused TELEGRAM_SESSION; make a new one with npm run telegram:login');
    this.connected = true;
    return 'Anima Account';
  }

  onPrivateMessage(handler: (message: PrivateMessage) => void): void {
    this.handler = handler;
  }

  async sendMessage(peerId: string, text: string): Promise<void> {
    this.sent.push({ peerId, text });
    for (const wake of this.waiters.splice(0)) wake();
  }

  async showTyping(peerId: string): Promise<void> {
    this.typing.push(peerId);
  }

  async disconnect(): Promise<void> {
    this.connected = false;
  }

  /** A private message arrives, as GramJS's NewMessage handler passes it on. */
  receive(message: PrivateMessage): void {
    if (!this.handler) throw new Error('the interface listens to no private messages');
    this.handler(message);
  }

  /** Resolves once `count` messages were sent. */
  async waitForSent(count: number): Promise<void> {
    while (this.sent.length < count) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }
}

/** Every client the interface made, newest last; a session named `refused` is refused. */
export const madeClients: StandInUserClient[] = [];

export function standInClient(settings: UserAccountSettings): UserAccountClient {
  const client = new StandInUserClient(settings, settings.session === 'refused');
  madeClients.push(client);
  return client;
}
