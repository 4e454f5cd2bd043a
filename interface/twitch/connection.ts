import type { ClockPort, ComponentContext, ConnectionReport } from '../../src/components/contract.ts';
import { EventSub } from './eventsub.ts';
import { type Ids, SUBSCRIPTIONS } from './events.ts';
import { Helix } from './helix.ts';
import type { TwitchSettings } from './settings.ts';
import { checkToken } from './token-check.ts';

/** Twitch asks apps to validate their token at start and hourly. */
const VALIDATE_EVERY_MS = 60 * 60_000;

interface Current {
  helix: Helix;
  settings: TwitchSettings;
  ids?: Ids;
  /** The event types the session follows (the optional ones Twitch accepted). */
  subscribed: Set<string>;
}

export interface ConnectionOptions {
  /** Read at each (re)connection, so a new token or channel takes effect on `restart`. */
  settings(): TwitchSettings;
  report(report: ConnectionReport): void;
  logger: ComponentContext['logger'];
  clock: ClockPort;
  /** `subscribed`: the event types this session follows. */
  onNotification(type: string, event: Record<string, unknown>, ids: Ids, subscribed: ReadonlySet<string>): void;
}

/**
 * The account's link to one Twitch channel: Helix (who the token is, the channel's id, subscriptions,
 * chat messages) and an EventSub session, replaced as a whole on `restart`. The token is validated before
 * the session opens, every hour, and when Helix answers 401; a refused one ends the session and the
 * connection says why, until new settings are saved.
 */
export class TwitchConnection {
  private eventSub: EventSub | undefined;
  private current: Current | undefined;
  private validation: unknown;

  constructor(private readonly options: ConnectionOptions) {}

  /** Helix and the resolved ids, once the first session subscribed. */
  get ready(): { helix: Helix; ids: Ids } | undefined {
    const current = this.current;
    return current?.ids ? { helix: current.helix, ids: current.ids } : undefined;
  }

  start(): void {
    const settings = this.options.settings();
    const { logger, clock, report } = this.options;
    const helix = new Helix({ settings: () => settings, clock, logger, unauthorized: () => void this.validate(current) });
    const current: Current = { helix, settings, subscribed: new Set() };
    this.current = current;
    const eventSub = new EventSub({
      url: settings.eventSubUrl,
      onSession: async (sessionId) => {
        current.ids ??= await this.resolve(helix, settings.channel);
        const missing = await this.subscribe(current, current.ids, sessionId);
        const ids = current.ids;
        report({
          state: 'connected',
          detail: `as ${ids.selfLogin} in #${settings.channel}${missing.length > 0 ? ` (no ${missing.join(', ')}: the token lacks their scopes)` : ''}`,
        });
      },
      onNotification: (type, event) => {
        if (current.ids) this.options.onNotification(type, event, current.ids, current.subscribed);
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
    this.eventSub = eventSub;
    report({ state: 'connecting', detail: 'validating TWITCH_ACCESS_TOKEN' });
    void this.validate(current).then((valid) => {
      if (valid && this.current === current) eventSub.start();
    });
  }

  restart(): void {
    this.stop();
    this.start();
  }

  stop(): void {
    this.options.clock.clearTimeout(this.validation);
    this.eventSub?.stop();
    this.eventSub = undefined;
    this.current = undefined;
  }

  /** Asks Twitch whether the token still holds; true when it may be used (a network failure says nothing against it). */
  private async validate(current: Current): Promise<boolean> {
    const { clock, logger, report } = this.options;
    const check = await checkToken(current.settings, clock).catch((error: unknown) => {
      logger.warn({ err: error }, 'the Twitch access token could not be validated; using it');
      return undefined;
    });
    if (this.current !== current) return false;
    clock.clearTimeout(this.validation);
    if (check && !check.valid) {
      logger.error({ reason: check.reason }, 'Twitch refused the access token; the session ends');
      this.eventSub?.stop();
      report({ state: 'disconnected', detail: `${check.reason}; save a new TWITCH_ACCESS_TOKEN to reconnect` });
      return false;
    }
    this.validation = clock.setTimeout(() => void this.validate(current), VALIDATE_EVERY_MS);
    return true;
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
  private async subscribe({ helix, subscribed }: Current, ids: Ids, sessionId: string): Promise<string[]> {
    const missing: string[] = [];
    subscribed.clear();
    for (const subscription of SUBSCRIPTIONS) {
      try {
        await helix.subscribe(subscription.type, subscription.version, subscription.condition(ids), sessionId);
        subscribed.add(subscription.type);
      } catch (error) {
        if (subscription.required) throw error;
        this.options.logger.warn({ err: error, type: subscription.type }, 'a Twitch EventSub subscription was refused');
        missing.push(subscription.type);
      }
    }
    return missing;
  }
}
