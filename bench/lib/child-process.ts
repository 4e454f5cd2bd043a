import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Scripted } from '../../test/helpers/openai-server.ts';

/** The loader `npm start` runs Anima with, so what is measured is what runs. */
const LOADER = new URL('../../src/loader/register.mjs', import.meta.url).href;

/** Runs a bench/lib script in a process of its own (TypeScript through the project's loader), with an IPC channel. */
export function startProcess(file: URL, args: string[] = []): ChildProcess {
  return fork(fileURLToPath(file), args, { execArgv: ['--import', LOADER], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

/** The child's next message; its exit before that fails the run. */
export function nextMessage<T>(child: ChildProcess): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const exited = (code: number | null) => reject(new Error(`${child.spawnfile} exited with ${code}`));
    child.once('exit', exited);
    child.once('message', (message) => {
      child.off('exit', exited);
      resolve(message as T);
    });
  });
}

/** A server a benchmark runs in a process of its own, so its figures are its own and not the load generator's. */
export interface ChildServer {
  port: number;
  /** CPU time the server's process has used so far (user and system), in microseconds. */
  cpuMicros(): Promise<number>;
  stop(): void;
}

/** Runs a bench/lib server script that calls `serveFromChild`, and waits for its port. */
export async function startServer(file: URL, args: string[] = []): Promise<ChildServer> {
  const child = startProcess(file, args);
  const { port } = await nextMessage<{ port: number }>(child);
  return {
    port,
    cpuMicros: async () => {
      const answer = nextMessage<{ cpuMicros: number }>(child);
      child.send('cpu');
      return (await answer).cpuMicros;
    },
    stop: () => child.disconnect(),
  };
}

/** The server's side: reports its port, answers CPU questions, and closes when the parent goes. */
export function serveFromChild(port: number, close: () => Promise<void>): void {
  process.send?.({ port });
  process.on('message', (message) => {
    if (message !== 'cpu') return;
    const { user, system } = process.cpuUsage();
    process.send?.({ cpuMicros: user + system });
  });
  process.on('disconnect', () => void close().then(() => process.exit(0)));
}

/** The local model server (`model-server-process.ts`) in a process of its own, answering `answer`; on `port` when given (a restart). */
export async function startModelServer(answer: Scripted, port?: number): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = startProcess(new URL('./model-server-process.ts', import.meta.url), [JSON.stringify(answer), ...(port === undefined ? [] : [String(port)])]);
  const { baseUrl } = await nextMessage<{ baseUrl: string }>(child);
  return { child, baseUrl };
}

/** Sends an order to a load process and waits for its answer; an `error` in the answer fails the run. */
export async function ask<T>(child: ChildProcess, order: unknown): Promise<T> {
  child.send(order as object);
  const answer = await nextMessage<T & { error?: string }>(child);
  if (answer.error) throw new Error(answer.error);
  return answer;
}
