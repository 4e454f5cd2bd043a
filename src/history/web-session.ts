import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../logging.ts';

/** The web UI's interface id; its conversations live under `webui/<session_id>`. */
export const WEBUI_INTERFACE = 'webui';
export const SESSION_ID_FILE = 'webui_session_id.txt';
const SESSION_ID = /^[A-Za-z0-9_-]{8,128}$/;

export interface WebSession {
  session_id: string;
  interface_path: string;
}

export class UnknownSessionError extends Error {}

export function isSessionId(value: string): boolean {
  return SESSION_ID.test(value);
}

function session(id: string): WebSession {
  return { session_id: id, interface_path: `${WEBUI_INTERFACE}/${id}` };
}

async function readOrCreateId(backups: string, log: Pick<Logger, 'warn' | 'info'>): Promise<string> {
  const file = join(backups, SESSION_ID_FILE);
  try {
    const stored = (await readFile(file, 'utf8')).trim();
    if (isSessionId(stored)) return stored;
    log.warn({ file }, 'web session id file holds no valid id; starting a new web session');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const id = randomUUID();
  await mkdir(backups, { recursive: true });
  // Written whole or not at all: a torn file would orphan the conversation at the next start.
  await writeFile(`${file}.tmp`, `${id}\n`, 'utf8');
  await rename(`${file}.tmp`, file);
  log.info({ session_id: id }, 'new persistent web session');
  return id;
}

/**
 * The web UI's sessions. Normally one id for the whole deployment, kept in `<backups>/webui_session_id.txt`
 * so the conversation survives restarts. With MULTI_SESSION every socket gets its own id, nothing is
 * written, and an id lives only while its socket does.
 */
export class WebSessions {
  private readonly live = new Set<string>();

  private constructor(
    readonly multiSession: boolean,
    private readonly persistent: WebSession | undefined,
  ) {}

  static async open(options: { backups: string; multiSession: boolean; logger: Logger }): Promise<WebSessions> {
    if (options.multiSession) return new WebSessions(true, undefined);
    return new WebSessions(false, session(await readOrCreateId(options.backups, options.logger.child({ component: 'history' }))));
  }

  /** For each new web socket: the shared session, or a fresh one under MULTI_SESSION. */
  connect(): WebSession {
    if (this.persistent) return this.persistent;
    const created = session(randomUUID());
    this.live.add(created.session_id);
    return created;
  }

  /** When a socket closes; under MULTI_SESSION its id stops being addressable. */
  disconnect(sessionId: string): void {
    this.live.delete(sessionId);
  }

  /**
   * The session an HTTP request means: the persistent one by default; under MULTI_SESSION the request
   * must name a connected socket's id. Throws UnknownSessionError otherwise.
   */
  resolve(sessionId?: string): WebSession {
    if (this.persistent) {
      if (sessionId !== undefined && sessionId !== this.persistent.session_id) throw new UnknownSessionError(`Unknown web session: ${sessionId}`);
      return this.persistent;
    }
    if (sessionId === undefined) throw new UnknownSessionError('MULTI_SESSION is on: name the session_id of a connected web client');
    if (!this.live.has(sessionId)) throw new UnknownSessionError(`Unknown web session: ${sessionId}`);
    return session(sessionId);
  }
}
