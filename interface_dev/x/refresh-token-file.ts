import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';

/** The refresh token X gave last, for the configured one it descends from (named by a hash, never in clear). */
const StateSchema = z.object({ configured_sha256: z.string(), refresh_token: z.string().min(1) });

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * X rotates refresh tokens: each renewal answers a new one and voids the one used. The newest is kept in
 * a file, so a restart renews with it instead of the spent X_REFRESH_TOKEN; saving a new X_REFRESH_TOKEN
 * starts again from that one.
 */
export class RefreshTokenFile {
  private state: z.infer<typeof StateSchema> | undefined;

  constructor(private readonly file: string) {}

  async load(): Promise<void> {
    try {
      this.state = StateSchema.parse(JSON.parse(await readFile(this.file, 'utf8')));
    } catch {
      this.state = undefined;
    }
  }

  /** The refresh token to use for the configured one: its newest descendant, or itself. */
  latest(configured: string): string {
    return this.state?.configured_sha256 === hashOf(configured) ? this.state.refresh_token : configured;
  }

  async keep(configured: string, refreshToken: string): Promise<void> {
    this.state = { configured_sha256: hashOf(configured), refresh_token: refreshToken };
    await mkdir(dirname(this.file), { recursive: true });
    await writeFile(`${this.file}.tmp`, JSON.stringify(this.state), { mode: 0o600 });
    await rename(`${this.file}.tmp`, this.file);
  }
}
