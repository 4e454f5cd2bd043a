import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { freePort } from './free-port.ts';

const SERVER = '/usr/sbin/mariadbd';
const INSTALL = '/usr/bin/mariadb-install-db';

/** Whether this machine can run a MariaDB of a test's own (Debian's mariadb-server). */
export const privateMariaDbAvailable = existsSync(SERVER) && existsSync(INSTALL);

/** Small and fast: a test's database holds a few rows, and its durability is proven by the test, not by fsync tuning. */
const SERVER_OPTIONS = ['--innodb-log-file-size=4M', '--innodb-buffer-pool-size=16M', '--innodb-doublewrite=0', '--skip-name-resolve'];
const asRoot = process.getuid?.() === 0 ? ['--user=root'] : [];

/**
 * A MariaDB server that belongs to one test: its own data folder (on /dev/shm when there is one), port
 * and socket, started and stopped by the test (SIGTERM for a clean shutdown, SIGKILL for a crash). Never
 * the machine's shared server on 3306, nor its temporary files.
 */
export interface PrivateMariaDb {
  /** `mysql://root@127.0.0.1:<port>/<database>`; the same across restarts. */
  readonly url: string;
  readonly port: number;
  readonly running: boolean;
  /** Starts the server again on the same data, port and socket; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops the server with `signal` and waits for the process to end. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /** Runs one statement as root on the test's database (with the server running). */
  query<T = unknown>(sql: string, values?: unknown[]): Promise<T>;
  /** Stops the server (SIGKILL) and removes its folder. */
  destroy(): Promise<void>;
}

/** Runs a program to its end; rejects with its output when it fails. */
function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (part: Buffer) => (output += part.toString()));
    child.stderr.on('data', (part: Buffer) => (output += part.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}:\n${output.slice(-2000)}`))));
  });
}

/** Resolves once the server's log says it accepts connections; rejects if it exits first. */
function ready(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let log = '';
    const onData = (part: Buffer) => {
      log += part.toString();
      if (/ready for connections/.test(log)) {
        child.stderr?.off('data', onData);
        child.off('exit', onExit);
        // Keep reading, or a full pipe would block the server's log writes.
        child.stderr?.resume();
        resolve();
      }
    };
    const onExit = (code: number | null) => reject(new Error(`mariadbd exited (${code}) before it was ready:\n${log.slice(-2000)}`));
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}

/** Creates a data folder, starts a server on it and creates `database`. */
export async function startPrivateMariaDb(database = 'anima'): Promise<PrivateMariaDb> {
  const base = await mkdtemp(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'anima-mariadb-'));
  const dataDir = join(base, 'data');
  await mkdir(dataDir);
  // A folder of its own for temporary tables: at bootstrap and at start a server deletes every `#sql*` file
  // in its tmpdir, which by default is /tmp, where the shared server keeps the temporary tables of the
  // queries it is running.
  const tmpDir = join(base, 'tmp');
  await mkdir(tmpDir);
  const folders = [`--datadir=${dataDir}`, `--tmpdir=${tmpDir}`];
  await run(INSTALL, ['--no-defaults', ...folders, '--auth-root-authentication-method=normal', '--skip-test-db', ...asRoot, ...SERVER_OPTIONS]);
  const port = await freePort();
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  const start = async () => {
    if (child) throw new Error('the private MariaDB is already running');
    const started = spawn(
      SERVER,
      [
        '--no-defaults',
        ...folders,
        `--port=${port}`,
        '--bind-address=127.0.0.1',
        `--socket=${join(base, 'mysqld.sock')}`,
        `--pid-file=${join(base, 'mysqld.pid')}`,
        ...asRoot,
        ...SERVER_OPTIONS,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    child = started;
    exited = new Promise((resolve) => started.once('exit', () => resolve()));
    void exited.then(() => {
      if (child === started) child = undefined;
    });
    await ready(started);
  };
  const stop = async (signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM') => {
    if (!child) return;
    child.kill(signal);
    await exited;
  };
  const query = async <T>(sql: string, values: unknown[] = []): Promise<T> => {
    const connection = await createConnection({ host: '127.0.0.1', port, user: 'root', database });
    try {
      const [rows] = await connection.query(sql, values);
      return rows as T;
    } finally {
      await connection.end();
    }
  };

  await start();
  const admin = await createConnection({ host: '127.0.0.1', port, user: 'root' });
  await admin.query(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  return {
    url: `mysql://root@127.0.0.1:${port}/${database}`,
    port,
    get running() {
      return child !== undefined;
    },
    start,
    stop,
    query,
    destroy: async () => {
      await stop('SIGKILL');
      await rm(base, { recursive: true, force: true });
    },
  };
}
