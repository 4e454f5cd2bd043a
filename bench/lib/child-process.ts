import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Runs a bench/lib script in a process of its own (TypeScript through tsx), with an IPC channel. */
export function startProcess(file: URL, args: string[] = []): ChildProcess {
  return fork(fileURLToPath(file), args, { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
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
