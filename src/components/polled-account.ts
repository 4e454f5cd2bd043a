import type { Logger } from 'pino';
import type { ClockPort, ConfigPort, ConnectionReport } from './ports.ts';
import { PollingLoop } from './polling.ts';

export interface PolledAccountOptions<Api> {
  /** The platform's name in log lines ("Reddit", "X"). */
  platform: string;
  /** What one look does, for the log ("reading the Reddit inbox"). */
  looking: string;
  /** The variables whose change makes a new client and looks again at once. */
  connectionKeys: readonly string[];
  context: { config: ConfigPort; logger: Logger; reportConnection(report: ConnectionReport): void };
  clock: ClockPort;
  intervalMs(): number;
  /** A client with the current settings; `signal` ends its waits and requests when it is replaced or stops. */
  connect(signal: AbortSignal): Api;
  /** One look; returns who the account is connected as. */
  look(api: Api): Promise<string>;
  /** A refusal of the credentials: polling stops until new settings, as retrying would be refused again. */
  refused(error: unknown): boolean;
  /** The settings changed: forget what the old client found (the account). */
  forget?(): void;
}

/**
 * An account on a polled platform (Reddit's inbox, X's mentions): a client made anew, and its old requests
 * aborted, when a connection variable changes; a look every interval on the host's clock; the connection
 * reported (connected as whom, a retry at the next look, or a refusal that stops polling).
 */
export class PolledAccount<Api> {
  private stopping = new AbortController();
  private client: Api;
  private readonly polling: PollingLoop;

  constructor(private readonly options: PolledAccountOptions<Api>) {
    this.client = options.connect(this.stopping.signal);
    const { logger, reportConnection } = options.context;
    this.polling = new PollingLoop({
      clock: options.clock,
      intervalMs: options.intervalMs,
      poll: async () => reportConnection({ state: 'connected', detail: await options.look(this.client) }),
      failed: (error) => {
        const reason = error instanceof Error ? error.message : String(error);
        if (options.refused(error)) {
          logger.error({ reason }, `${options.platform} refused the credentials`);
          reportConnection({ state: 'disconnected', detail: reason });
          return 'stop';
        }
        logger.warn({ reason }, `${options.looking} failed; trying again at the next poll`);
        reportConnection({ state: 'disconnected', detail: `${reason}; trying again at the next poll` });
        return 'retry';
      },
    });
  }

  /** The client of the current settings, for actions. */
  get api(): Api {
    return this.client;
  }

  start(): void {
    this.options.context.config.onChange(this.options.connectionKeys, () => {
      this.options.context.logger.info(`the ${this.options.platform} settings changed; connecting again`);
      this.renew();
      this.polling.restart();
    });
    this.renew();
    this.options.context.reportConnection({ state: 'connecting' });
    this.polling.start();
  }

  stop(): void {
    this.polling.stop();
    this.stopping.abort();
  }

  private renew(): void {
    this.stopping.abort();
    this.stopping = new AbortController();
    this.client = this.options.connect(this.stopping.signal);
    this.options.forget?.();
  }
}
