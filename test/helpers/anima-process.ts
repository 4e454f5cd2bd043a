import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
/** The TypeScript loader of `npm start`, by absolute URL: the process runs in a temporary folder. */
const LOADER = new URL('../../src/loader/register.mjs', import.meta.url).href;

export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

export interface AnimaProcess {
  child: ChildProcess;
  /** The JSON log lines (LOG_FORMAT=json, the default here). */
  lines: LogLine[];
  /** Everything written to stdout, as written. */
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the first log line (from now or earlier) matching `predicate`. */
  waitFor(predicate: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/**
 * Runs `src/main.ts` as a real process in `cwd` (stdout is not a terminal), with JSON logs on stdout
 * unless `environment` sets LOG_FORMAT itself; an entry `undefined` leaves that variable unset.
 */
export function spawnAnima(cwd: string, environment: Record<string, string | undefined>): AnimaProcess {
  const defaults = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', APP_WEBUI_HTTP_PORT: '0', COMPAT_API_SERVER_PORT: '0', LOG_FORMAT: 'json' };
  const child = spawn(process.execPath, ['--import', LOADER, MAIN], {
    cwd,
    env: Object.fromEntries(Object.entries({ ...defaults, ...environment }).filter((entry): entry is [string, string] => entry[1] !== undefined)),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  const waiters: Array<{ predicate: (line: LogLine) => boolean; resolve: (line: LogLine) => void }> = [];
  let buffered = '';
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    buffered += chunk.toString();
    const complete = buffered.split('\n');
    buffered = complete.pop() ?? '';
    for (const text of complete) {
      if (!text.startsWith('{')) continue;
      const line = JSON.parse(text) as LogLine;
      lines.push(line);
      for (const waiter of [...waiters]) {
        if (waiter.predicate(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    lines,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    waitFor(predicate, timeoutMs = 20_000) {
      const found = lines.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out; stderr: ${stderr}; log: ${lines.map((line) => line.msg).join(' | ')}`)), timeoutMs);
        exited.then(() => {
          clearTimeout(timer);
          reject(new Error(`process exited; stderr: ${stderr}; log: ${lines.map((line) => line.msg).join(' | ')}`));
        });
        waiters.push({
          predicate,
          resolve: (line) => {
            clearTimeout(timer);
            resolve(line);
          },
        });
      });
    },
  };
}

export const isBanner = (line: LogLine) => line.msg.startsWith('Anima is running');
