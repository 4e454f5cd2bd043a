import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';

/** The account a session belongs to: a kept token or sync position is worthless for any other. */
export interface Account {
  homeserver: string;
  userId: string;
}

const KeptSchema = z.object({
  homeserver: z.string(),
  userId: z.string(),
  /** Obtained by password login, so a restart does not log in (and make a device) again. */
  login: z
    .object({ accessToken: z.string().min(1), deviceId: z.string().min(1) })
    .nullable()
    .default(null),
  /** The `next_batch` of the last sync handled, so a restart neither misses nor repeats events. */
  syncToken: z.string().min(1).nullable().default(null),
});
export type KeptSession = z.infer<typeof KeptSchema>;

/**
 * `<backups>/matrix/session.json`: the access token a password login obtained and the sync token, for one
 * account. It holds a credential, so it is written for its owner only, and replaced whole (write, then
 * rename) so a crash never leaves half a file.
 */
export class SessionFile {
  private writing: Promise<void> = Promise.resolve();
  private current: KeptSession | undefined;

  constructor(
    private readonly path: string,
    private readonly account: Account,
  ) {}

  /** What is kept for this account; nothing when the file is missing, unreadable or another account's. */
  async load(): Promise<KeptSession> {
    const empty: KeptSession = { ...this.account, login: null, syncToken: null };
    let kept: KeptSession | undefined;
    try {
      const parsed = KeptSchema.safeParse(JSON.parse(await readFile(this.path, 'utf8')));
      kept = parsed.success ? parsed.data : undefined;
    } catch {
      kept = undefined;
    }
    this.current = kept && kept.homeserver === this.account.homeserver && kept.userId === this.account.userId ? kept : empty;
    return this.current;
  }

  get session(): KeptSession | undefined {
    return this.current;
  }

  /** Changes some fields and writes the file; writes happen one at a time, in order. */
  update(change: Partial<Pick<KeptSession, 'login' | 'syncToken'>>): Promise<void> {
    const next: KeptSession = { ...this.account, login: null, syncToken: null, ...this.current, ...change };
    this.current = next;
    // A failed write is reported to its caller; the next one still runs.
    const written = this.writing.catch(() => undefined).then(() => this.write(next));
    this.writing = written;
    return written;
  }

  private async write(session: KeptSession): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const temporary = `${this.path}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(session, null, 2)}\n`, { mode: 0o600 });
    await rename(temporary, this.path);
  }
}
