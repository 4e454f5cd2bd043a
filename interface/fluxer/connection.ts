import type { ClockPort, ComponentContext, ConnectionReport } from '../../src/components/contract.ts';
import { Gateway } from './gateway.ts';
import { FluxerRest } from './rest.ts';
import type { FluxerSettings } from './settings.ts';

export interface ConnectionOptions {
  /** Read at each (re)connection, so a new token, server or version takes effect on `restart`. */
  settings(): FluxerSettings;
  report(report: ConnectionReport): void;
  logger: ComponentContext['logger'];
  onDispatch(type: string, data: unknown): void;
  clock: ClockPort;
}

interface Session {
  rest: FluxerRest;
  gateway: Gateway;
}

/** The bot's link to a Fluxer server: its REST client and its gateway, replaced as a whole on `restart`. */
export class FluxerConnection {
  private session: Session | undefined;

  constructor(private readonly options: ConnectionOptions) {}

  get rest(): FluxerRest | undefined {
    return this.session?.rest;
  }

  /** The bot's own user id, once READY named it. */
  get selfId(): string | undefined {
    return this.session?.gateway.user?.id;
  }

  start(): void {
    const settings = this.options.settings();
    if (settings.token === '') {
      this.options.report({ state: 'disconnected', detail: 'FLUXER_BOT_TOKEN is empty' });
      return;
    }
    const rest = new FluxerRest({ settings: () => settings, logger: this.options.logger, clock: this.options.clock });
    const gateway = new Gateway({
      url: async () => settings.gatewayUrl ?? (await rest.gatewayUrl()),
      token: settings.token,
      version: settings.version,
      onDispatch: this.options.onDispatch,
      report: this.options.report,
      logger: this.options.logger,
      clock: this.options.clock,
    });
    this.session = { rest, gateway };
    gateway.start();
  }

  restart(): void {
    this.stop();
    this.start();
  }

  stop(): void {
    this.session?.gateway.stop();
    this.session = undefined;
  }
}
