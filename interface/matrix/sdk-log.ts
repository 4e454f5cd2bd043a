import { format } from 'node:util';
import { logger as sdkLogger } from 'matrix-js-sdk/lib/logger.js';
import type { Logger } from 'pino';

/** The loglevel logger the SDK's module-level `logger` is (its type hides these). */
interface LevelLogger {
  methodFactory: (method: string, level: number, name: string | symbol) => (...args: unknown[]) => void;
  setLevel(level: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'silent', persist?: boolean): void;
}

/**
 * The SDK's own lines, quieter than it says: it reports as errors what is routine (the state of a room it is
 * invited to) or what the interface handles and reports itself (a refused sync, a homeserver down), and
 * writes lines per sync at debug.
 */
const QUIETER: Record<string, 'info' | 'debug' | 'trace'> = { error: 'info', warn: 'debug', info: 'debug' };

let target: Logger | undefined;

/**
 * Sends the SDK's log lines (otherwise written to the console) to `logger`. The SDK logs through one
 * process-wide logger, so the latest connection's logger takes them.
 */
export function routeSdkLogs(logger: Logger): void {
  const first = target === undefined;
  target = logger;
  if (!first) return;
  const levels = sdkLogger as unknown as LevelLogger;
  levels.methodFactory =
    (method) =>
    (...args) => {
      const level = QUIETER[method] ?? 'trace';
      if (!target?.isLevelEnabled(level)) return;
      const err = args.find((arg) => arg instanceof Error);
      const text = format(...args.filter((arg) => arg !== err));
      if (err) target[level]({ err }, `matrix sdk: ${text}`);
      else target[level](`matrix sdk: ${text}`);
    };
  // Setting the level rebuilds the methods with the factory above.
  levels.setLevel('trace', false);
}
