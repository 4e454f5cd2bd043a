import { Client, DiscordjsErrorCodes, Events, GatewayIntentBits, Partials, RESTEvents } from 'discord.js';
import { type ClockPort, type ComponentContext, type ConnectionReport, SerialConnection, waitOn } from '../../src/components/contract.ts';

export interface ConnectionOptions {
  /** Read at each (re)connection, so a new token or API base takes effect on `restart`. */
  settings(): { token: string; apiBaseUrl: string };
  report(report: ConnectionReport): void;
  logger: ComponentContext['logger'];
  /** Adds the event handlers to a new client. */
  install(client: Client): void;
  clock: ClockPort;
}

/** The longest wait between two attempts to log in. */
const MAX_BACKOFF_S = 60;
/** Gateway close code of a token Discord refuses. */
const AUTHENTICATION_FAILED = 4004;

const INTENTS = [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages, GatewayIntentBits.MessageContent];

const isRefusedToken = (error: unknown) => error instanceof Error && 'code' in error && error.code === DiscordjsErrorCodes.TokenInvalid;

/**
 * The bot's link to Discord through discord.js: logs in (again after a network failure, with a growing
 * pause), reports the gateway's state (discord.js resumes or re-identifies a dropped connection by itself),
 * gives up on a refused token until the configuration changes, and is replaced as a whole on `restart`
 * (a new token or API base), one transition at a time.
 */
export class DiscordConnection extends SerialConnection {
  private client: Client | undefined;
  private controller: AbortController | undefined;

  constructor(private readonly options: ConnectionOptions) {
    super();
  }

  /** The current client (logged in or not yet), for sending. */
  get current(): Client | undefined {
    return this.client;
  }

  protected open(): void {
    const { token, apiBaseUrl } = this.options.settings();
    if (token.trim() === '') {
      this.options.report({ state: 'disconnected', detail: 'DISCORD_BOT_TOKEN is empty' });
      return;
    }
    const client = new Client({ intents: INTENTS, partials: [Partials.Channel], rest: { api: apiBaseUrl.replace(/\/+$/, '') } });
    this.watch(client);
    this.options.install(client);
    this.client = client;
    this.controller = new AbortController();
    void this.login(client, token.trim(), this.controller.signal);
  }

  protected async close(): Promise<void> {
    this.controller?.abort();
    const client = this.client;
    this.client = undefined;
    await client?.destroy();
  }

  private watch(client: Client): void {
    const { report, logger } = this.options;
    const connected = () => report({ state: 'connected', ...(client.user ? { detail: client.user.tag } : {}) });
    client.on(Events.ShardReady, connected);
    client.on(Events.ShardResume, connected);
    client.on(Events.ShardReconnecting, () => report({ state: 'connecting', detail: 'reconnecting to the gateway' }));
    client.on(Events.ShardDisconnect, ({ code }) => {
      const refused = code === AUTHENTICATION_FAILED;
      if (refused) logger.error('Discord refused the bot token; set a valid DISCORD_BOT_TOKEN');
      report({ state: 'disconnected', detail: refused ? 'Discord refused the token; set a valid DISCORD_BOT_TOKEN' : `the gateway closed (${code})` });
    });
    client.on(Events.Error, (error) => logger.warn({ err: error }, 'a Discord client error'));
    // discord.js waits a 429's retry_after itself before sending again; the log says why an answer is late.
    client.rest.on(RESTEvents.RateLimited, (limit) =>
      logger.warn({ route: limit.route, retry_after_ms: limit.retryAfter, global: limit.global }, 'Discord rate limit: waiting before sending again'),
    );
  }

  private async login(client: Client, token: string, signal: AbortSignal): Promise<void> {
    const { report, logger } = this.options;
    let backoffS = 1;
    while (!signal.aborted) {
      report({ state: 'connecting' });
      try {
        await client.login(token);
        return;
      } catch (error) {
        if (signal.aborted) return;
        if (isRefusedToken(error)) {
          logger.error({ err: error }, 'Discord refused the bot token; set a valid DISCORD_BOT_TOKEN');
          report({ state: 'disconnected', detail: 'Discord refused the token; set a valid DISCORD_BOT_TOKEN' });
          return;
        }
        const reason = error instanceof Error ? error.message : String(error);
        logger.warn({ err: error, retry_in_s: backoffS }, 'Discord is out of reach; retrying');
        report({ state: 'disconnected', detail: `${reason}; retrying in ${backoffS} s` });
        await waitOn(this.options.clock, backoffS * 1000, signal);
        backoffS = Math.min(MAX_BACKOFF_S, backoffS * 2);
      }
    }
  }
}
