import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { ConfigStore } from './config/store.ts';
import { Redactor } from './logging-redact.ts';

export type { Logger };

/** Fans every log line out to live subscribers (the WS /logs stream). */
export class LogTap {
  /**
   * The secrets every line is cleaned of before it reaches any output, this tap or stdout. It travels
   * with the tap because the tap is what reaches the services, which keep it current with the configuration.
   */
  readonly redactor = new Redactor();
  private readonly subscribers = new Set<(line: string) => void>();

  subscribe(listener: (line: string) => void): () => void {
    this.subscribers.add(listener);
    return () => this.subscribers.delete(listener);
  }

  write(line: string): void {
    for (const listener of this.subscribers) listener(line);
  }
}

export interface LoggerOptions {
  level: string;
  /** Human-readable output (LOG_FORMAT=pretty, the default); false writes one JSON object a line. */
  pretty?: boolean;
  destination?: NodeJS.WritableStream;
}

/**
 * One pino logger for the process: readable by default, JSON on request, and always JSON into the tap;
 * every line without the secrets of `tap.redactor`. Readable even when stdout is a pipe, because that is
 * what `npm start` under a process manager or `| tee` gives; colours only in a terminal, where they show.
 */
export function createLogger(options: LoggerOptions): { logger: Logger; tap: LogTap } {
  const tap = new LogTap();
  const destination = options.destination ?? process.stdout;
  const output = options.pretty !== false ? pretty({ colorize: (destination as { isTTY?: boolean }).isTTY === true, destination }) : destination;
  // Each stream takes every level; the logger's own level decides what is written.
  const logger = pino(
    { level: options.level, base: { pid: process.pid }, hooks: { streamWrite: (line) => tap.redactor.clean(line) } },
    pino.multistream([
      { level: 'trace', stream: output },
      { level: 'trace', stream: tap },
    ]),
  );
  return { logger, tap };
}

/** LOGGING_LEVEL applies at once when it is changed through the API. */
export function followLogLevel(config: ConfigStore, logger: Logger): void {
  config.on('change', ({ key, value }) => {
    if (key === 'LOGGING_LEVEL') logger.level = String(value);
  });
}
