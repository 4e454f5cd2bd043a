import { type Api, Bot, GrammyError } from 'grammy';
import { type ClockPort, type ComponentContext, type ConnectionReport, SerialConnection, waitOn } from '../../src/components/contract.ts';
import { floodControl } from './flood-control.ts';

export interface ConnectionOptions {
  /** Read at each (re)connection, so a new token or server takes effect on `restart`. */
  settings(): { token: string; apiRoot: string };
  report(report: ConnectionReport): void;
  logger: ComponentContext['logger'];
  /** Adds the update handlers (and the error handler) to a new bot. */
  install(bot: Bot): void;
  clock: ClockPort;
}

/** The longest wait between two attempts to reach Telegram. */
const MAX_BACKOFF_S = 60;
/** What the bot asks getUpdates for: everything else is left on Telegram's side. */
const ALLOWED_UPDATES = ['message', 'callback_query'] as const;

const reasonOf = (error: unknown) =>
  error instanceof GrammyError ? `${error.error_code} ${error.description}` : error instanceof Error ? error.message : String(error);

/** grammY types its signals with the abort-controller polyfill; any object with `aborted` and `addEventListener` works. */
const grammySignal = (signal: AbortSignal) => signal as unknown as Parameters<Bot['api']['getMe']>[0];

interface Session {
  bot: Bot;
  controller: AbortController;
  running: Promise<void>;
}

/**
 * The bot's link to the Bot API: long polling with grammY, reconnected with a growing pause after a
 * network failure or a conflict, given up on a refused token until the configuration changes, and
 * replaced as a whole on `restart` (a new token or server), one transition at a time.
 */
export class TelegramConnection extends SerialConnection {
  private session: Session | undefined;

  constructor(private readonly options: ConnectionOptions) {
    super();
  }

  /** The API of the current bot (whether or not it is connected yet), for sending. */
  get api(): Api | undefined {
    return this.session?.bot.api;
  }

  protected open(): void {
    const { token, apiRoot } = this.options.settings();
    if (token.trim() === '') {
      this.options.report({ state: 'disconnected', detail: 'TELEGRAM_BOT_TOKEN is empty' });
      return;
    }
    const bot = new Bot(token.trim(), { client: { apiRoot: apiRoot.replace(/\/+$/, '') } });
    bot.api.config.use(
      floodControl(this.options.clock, (method, seconds) =>
        this.options.logger.warn({ method, retry_after_s: seconds }, 'Telegram flood control: waiting before retrying'),
      ),
    );
    this.options.install(bot);
    const controller = new AbortController();
    const session: Session = { bot, controller, running: Promise.resolve() };
    session.running = this.run(session);
    this.session = session;
  }

  protected async close(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    if (!session) return;
    session.controller.abort();
    // grammY confirms the updates it handled with one last getUpdates; a revoked token refuses it.
    await session.bot.stop().catch((error: unknown) => this.options.logger.debug({ err: error }, 'the last getUpdates of the stopped bot failed'));
    await session.running;
  }

  private async run({ bot, controller: { signal } }: Session): Promise<void> {
    const { report, logger } = this.options;
    let backoffS = 1;
    while (!signal.aborted) {
      report({ state: 'connecting' });
      try {
        // Asked here rather than by bot.start(), whose own getMe retries a network failure forever without a way to stop it.
        if (!bot.isInited()) bot.botInfo = await bot.api.getMe(grammySignal(signal));
        if (signal.aborted) return;
        await bot.start({
          allowed_updates: ALLOWED_UPDATES,
          onStart: (me) => {
            backoffS = 1;
            report({ state: 'connected', detail: `@${me.username}` });
          },
        });
        // start() returns once the bot is stopped.
      } catch (error) {
        if (signal.aborted) return;
        if (error instanceof GrammyError && (error.error_code === 401 || error.error_code === 404)) {
          logger.error({ err: error }, 'Telegram refused the bot token; set a valid TELEGRAM_BOT_TOKEN');
          report({ state: 'disconnected', detail: `Telegram refused the token (${reasonOf(error)}); set a valid TELEGRAM_BOT_TOKEN` });
          return;
        }
        logger.warn({ err: error, retry_in_s: backoffS }, 'Telegram is out of reach; retrying');
        report({ state: 'disconnected', detail: `${reasonOf(error)}; retrying in ${backoffS} s` });
        await waitOn(this.options.clock, backoffS * 1000, signal);
        backoffS = Math.min(MAX_BACKOFF_S, backoffS * 2);
      }
    }
  }
}
