import type { ClockPort, ComponentContext, ConnectionReport } from '../../src/components/contract.ts';
import { EventSub } from './eventsub.ts';
import { type Ids, SUBSCRIPTIONS } from './events.ts';
import { Helix } from './helix.ts';
import type { TwitchSettings } from './settings.ts';

export interface ConnectionOptions {
  /** Read at each (re)connection, so a new token or channel takes effect on `restart`. */
  settings(): TwitchSettings;
  report(report: ConnectionReport): void;
  logger: ComponentContext['logger'];
  clock: ClockPort;
  onNotification(type: string, event: Record<string, unknown>, ids: Ids): void;
}

/**
 * The account's link to one Twitch channel: Helix (who the token is, the channel's id, subscriptions,
 * chat messages) and an EventSub session, replaced as a whole on `restart`.
 */
export class TwitchConnection {
  private eventSub: EventSub | undefined;
  private current: { helix: Helix; settings: TwitchSettings; ids?: Ids } | undefined;

  constructor(private readonly options: ConnectionOptions) {}

  /** Helix and the resolved ids, once the first session subscribed. */
  get ready(): { helix: Helix; ids: Ids } | undefined {
    const current = this.current;
    return current?.ids ? { helix: current.helix, ids: current.ids } : undefined;
  }

  start(): void {
    const settings = this.options.settings();
    const { logger, clock, report } = this.options;
    const helix = new Helix({ settings: () => settings, clock, logger });
    const current: { helix: Helix; settings: TwitchSettings; ids?: Ids } = { helix, settings };
    this.current = current;
    this.eventSub = new EventSub({
      url: settings.eventSubUrl,
      onSession: async (sessionId) => {
        current.ids ??= await this.resolve(helix, settings.channel);
        const missing = await this.subscribe(helix, current.ids, sessionId);
        const ids = current.ids;
        report({
          state: 'connected',
          detail: `as ${ids.selfLogin} in #${settings.channel}${missing.length > 0 ? ` (no ${missing.join(', ')}: the token lacks their scopes)` : ''}`,
        });
      },
      onNotification: (type, event) => {
        if (current.ids) this.options.onNotification(type, event, current.ids);
      },
      onRevocation: (type, status) => {
        logger.warn({ type, status }, 'Twitch revoked an EventSub subscription');
        report({ state: 'disconnected', detail: `Twitch revoked ${type} (${status}); save the Twitch settings again to reconnect` });
        if (type === 'channel.chat.message') this.eventSub?.stop();
      },
      report,
      logger,
      clock,
    });
    this.eventSub.start();
  }

  restart(): void {
    this.stop();
    this.start();
  }

  stop(): void {
    this.eventSub?.stop();
    this.eventSub = undefined;
    this.current = undefined;
  }

  /** The token's own account and the channel's id (`GET /users`, `GET /users?login=`). */
  private async resolve(helix: Helix, channel: string): Promise<Ids> {
    const self = await helix.user();
    if (!self) throw new Error('Twitch named no user for TWITCH_ACCESS_TOKEN');
    const broadcaster = await helix.user(channel);
    if (!broadcaster) throw new Error(`Twitch has no channel named ${channel} (TWITCH_CHANNEL)`);
    return { broadcaster: broadcaster.id, self: self.id, selfLogin: self.login };
  }

  /** Creates the session's subscriptions; chat must succeed, the others may be refused. Returns the refused ones. */
  private async subscribe(helix: Helix, ids: Ids, sessionId: string): Promise<string[]> {
    const missing: string[] = [];
    for (const subscription of SUBSCRIPTIONS) {
      try {
        await helix.subscribe(subscription.type, subscription.version, subscription.condition(ids), sessionId);
      } catch (error) {
        if (subscription.required) throw error;
        this.options.logger.warn({ err: error, type: subscription.type }, 'a Twitch EventSub subscription was refused');
        missing.push(subscription.type);
      }
    }
    return missing;
  }
}
