import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];

/**
 * A request's logger that makes its pino child (the one carrying the request id) when the request first
 * logs. Request logging is off, so most requests never log, and making a pino child for each of them cost
 * more than the rest of a small route's own work.
 */
class RequestLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  get level(): FastifyBaseLogger['level'] {
    return this.logger.level;
  }

  set level(level: FastifyBaseLogger['level']) {
    this.logger.level = level;
  }

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }

  fatal(...args: unknown[]): void {
    Reflect.apply(this.logger.fatal, this.logger, args);
  }

  error(...args: unknown[]): void {
    Reflect.apply(this.logger.error, this.logger, args);
  }

  warn(...args: unknown[]): void {
    Reflect.apply(this.logger.warn, this.logger, args);
  }

  info(...args: unknown[]): void {
    Reflect.apply(this.logger.info, this.logger, args);
  }

  debug(...args: unknown[]): void {
    Reflect.apply(this.logger.debug, this.logger, args);
  }

  trace(...args: unknown[]): void {
    Reflect.apply(this.logger.trace, this.logger, args);
  }

  silent(...args: unknown[]): void {
    Reflect.apply(this.logger.silent, this.logger, args);
  }
}

export const lazyRequestLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (logger, bindings, options) =>
  new RequestLogger(logger, bindings, options);
