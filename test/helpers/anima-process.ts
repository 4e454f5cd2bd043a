import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
/** The project's TypeScript loader, by absolute URL: the process runs in a temporary folder. */
const TSX_LOADER = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;

export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

export interface AnimaProcess {
  child: ChildProcess;
  lines: LogLine[];
  stderr: () => string;
  /** Resolves with the first log line (from now or earlier) matching `predicate`. */
  waitFor(predicate: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/** Runs `src/main.ts` as a real process in `cwd` with JSON logs on stdout (stdout is not a terminal). */
export function spawnAnima(cwd: string, environment: Record<string, string>): AnimaProcess {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, MAIN], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', APP_WEBUI_HTTP_PORT: '0', COMPAT_API_SERVER_PORT: '0', ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  const waiters: Array<{ predicate: (line: LogLine) => boolean; resolve: (line: LogLine) => void }> = [];
  let buffered = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
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
