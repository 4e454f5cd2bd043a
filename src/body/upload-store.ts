import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { safeFileName, sweepStagingFolder } from '../system/upload-files.ts';
import type { Logger } from '../logging.ts';
import type { BodyServer } from './body-server.ts';
import { systemClock, type Clock, type TimerHandle } from './clock.ts';
import type { Descriptor } from './descriptor.ts';
import { detectAnimation, type AnimationKind } from './file-kinds.ts';
import { byName, isSafeSegment, readEntries, skinUrl, TEMP_FOLDER } from './skin-files.ts';
import { assertUploadId, UPLOAD_ID_PATTERN, UploadError } from './upload-errors.ts';

const DAY_MS = 86_400_000;
/** Staged multipart files wait here (same file system as the uploads, so moving them is a rename). */
const INCOMING_FOLDER = '.incoming';
/** A staged file this old belongs to an upload that never finished (the process stopped mid-upload). */
export const STAGED_MAX_AGE_MS = 3_600_000;

/** `skins/temp/<upload_id>/meta.json` (contract "Uploads"). */
export const UploadMetaSchema = z.object({
  upload_id: z.string().regex(UPLOAD_ID_PATTERN),
  state: z.string().refine(isSafeSegment),
  file: z.string().refine(isSafeSegment),
  original_name: z.string(),
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  created_at: z.iso.datetime(),
  expires_at: z.iso.datetime(),
  has_descriptor: z.boolean(),
});
export type UploadMeta = z.infer<typeof UploadMetaSchema>;

/** What listings and the upload answer add to the meta: where clients fetch the file. */
export type UploadView = UploadMeta & { url: string };

export interface UploadStoreOptions {
  body: BodyServer;
  logger: Logger;
  ttlDays: () => number;
  promoteEnabled: () => boolean;
  clock?: Clock;
}

export interface NewUpload {
  /** The staged file (from `stagingPath`); moved into the upload, or left for the caller to remove. */
  staged: string;
  originalName: string;
  /** A known state, already resolved from any alias. */
  state: string;
  descriptor: Descriptor | null;
}

/** The name an upload is stored under: the client's name made safe, with the extension its content earns. */
export function uploadFileName(originalName: string, kind: AnimationKind): string {
  const stem = safeFileName(originalName).replace(/\.(fbx|vrma)$/i, '');
  return `${stem === '' ? 'animation' : stem}.${kind}`;
}

/**
 * Temporary animation uploads under `skins/temp/<upload_id>/`. Everything lives on disk (the meta file
 * and the body's temporary search paths), so several stores over one folder agree and uploads survive
 * a restart (`start` registers them again).
 */
export class UploadStore {
  readonly body: BodyServer;
  readonly folder: string;
  private readonly clock: Clock;
  private sweepTimer: TimerHandle | undefined;
  private sweeps: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: UploadStoreOptions) {
    this.body = options.body;
    this.folder = join(options.body.skinsDir, TEMP_FOLDER);
    this.clock = options.clock ?? systemClock;
  }

  promoteEnabled(): boolean {
    return this.options.promoteEnabled();
  }

  /**
   * Removes what the last process left staged, registers the uploads already on disk, sweeps the
   * expired ones, then sweeps every `intervalMs`.
   */
  async start(intervalMs: number): Promise<void> {
    const staged = await sweepStagingFolder(join(this.folder, INCOMING_FOLDER));
    if (staged > 0) this.options.logger.info({ count: staged }, 'files of unfinished uploads removed');
    for (const meta of await this.list()) await this.body.addTemporarySearchPath(this.rootOf(meta.upload_id));
    await this.sweep();
    this.sweepEvery(intervalMs);
  }

  /** Sweeps every `intervalMs` from now on (a changed COMPANION_UPLOAD_CLEANUP_INTERVAL_S). */
  sweepEvery(intervalMs: number): void {
    this.stop();
    this.sweepTimer = this.clock.setInterval(() => void this.sweep(), intervalMs);
  }

  stop(): void {
    if (this.sweepTimer !== undefined) this.clock.clearInterval(this.sweepTimer);
    this.sweepTimer = undefined;
  }

  /** A fresh path to stream an incoming file to before it is checked. */
  async stagingPath(): Promise<string> {
    const folder = join(this.folder, INCOMING_FOLDER);
    await mkdir(folder, { recursive: true });
    return join(folder, randomUUID());
  }

  rootOf(id: string): string {
    assertUploadId(id);
    return join(this.folder, id);
  }

  /**
   * Checks the staged file by content, stores it with its descriptor and meta, and makes it playable.
   * The upload's folder is assembled among the staged files and renamed into place whole, so a process
   * stopped halfway leaves no upload with a missing meta or a half-written descriptor.
   */
  async create(input: NewUpload): Promise<{ meta: UploadView; descriptor: Descriptor | null }> {
    const kind = await detectAnimation(input.staged);
    if (!kind) throw new UploadError('unsupported', 'The file is neither FBX (binary or ASCII) nor a VRM Animation (.vrma)');
    if (!isSafeSegment(input.state)) throw new UploadError('invalid', 'Invalid state name');
    const id = randomBytes(16).toString('hex');
    const root = this.rootOf(id);
    const assembly = join(this.folder, INCOMING_FOLDER, id);
    const file = uploadFileName(input.originalName, kind);
    const target = join(assembly, 'animations', input.state, file);
    try {
      await mkdir(join(assembly, 'animations', input.state), { recursive: true });
      await rename(input.staged, target);
      if (input.descriptor) await writeFile(`${target}.json`, `${JSON.stringify(input.descriptor, null, 2)}\n`);
      const hashed = await this.body.assets.hashFile(target);
      if (!hashed) throw new Error(`the stored upload ${target} cannot be read`);
      const now = this.clock.now();
      const meta: UploadMeta = {
        upload_id: id,
        state: input.state,
        file,
        original_name: input.originalName.slice(0, 1024),
        size: hashed.size,
        sha256: hashed.hash.slice('sha256:'.length),
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + this.options.ttlDays() * DAY_MS).toISOString(),
        has_descriptor: input.descriptor !== null,
      };
      await writeFile(join(assembly, 'meta.json'), `${JSON.stringify(meta, null, 2)}\n`);
      await rename(assembly, root);
      await this.body.addTemporarySearchPath(root);
      return { meta: this.view(meta), descriptor: input.descriptor };
    } catch (error) {
      await rm(assembly, { recursive: true, force: true });
      await rm(root, { recursive: true, force: true });
      throw error;
    }
  }

  /** The stored uploads, oldest first; a folder without a valid meta file is skipped (and swept when old). */
  async list(): Promise<UploadView[]> {
    const uploads: UploadView[] = [];
    for (const entry of await readEntries(this.folder)) {
      if (!entry.isDirectory() || !UPLOAD_ID_PATTERN.test(entry.name)) continue;
      const meta = await this.read(entry.name);
      if (meta) uploads.push(meta);
    }
    return uploads.sort((a, b) => byName(a.created_at, b.created_at) || byName(a.upload_id, b.upload_id));
  }

  /** One upload, or undefined when it does not exist. Throws UploadError for a malformed id. */
  async get(id: string): Promise<UploadView | undefined> {
    assertUploadId(id);
    return this.read(id);
  }

  /** Removes an upload and its search path; false when there was none. */
  async remove(id: string): Promise<boolean> {
    const root = this.rootOf(id);
    const exists = await stat(root).then(
      (info) => info.isDirectory(),
      () => false,
    );
    await this.body.removeTemporarySearchPath(root);
    if (exists) await rm(root, { recursive: true, force: true });
    return exists;
  }

  /**
   * Removes uploads past their expiry, or older than the retention in force now (so lowering
   * COMPANION_UPLOAD_TTL_DAYS applies to earlier uploads too), and stray folders older than it.
   */
  sweep(): Promise<string[]> {
    // One sweep at a time, each reading the clock when it begins, so a late sweep never answers with
    // an earlier one's view of time.
    const next = this.sweeps.then(() => this.sweepOnce());
    this.sweeps = next;
    return next;
  }

  private async sweepOnce(): Promise<string[]> {
    const now = this.clock.now();
    const ttlMs = this.options.ttlDays() * DAY_MS;
    const removed: string[] = [];
    try {
      for (const entry of await readEntries(this.folder)) {
        if (!entry.isDirectory() || !UPLOAD_ID_PATTERN.test(entry.name)) continue;
        const meta = await this.read(entry.name);
        const createdAt = meta ? Date.parse(meta.created_at) : (await stat(this.rootOf(entry.name))).mtimeMs;
        const expired = now - createdAt >= ttlMs || (meta !== undefined && now >= Date.parse(meta.expires_at));
        if (expired && (await this.remove(entry.name))) removed.push(entry.name);
      }
      if (removed.length > 0) this.options.logger.info({ upload_ids: removed }, 'expired animation uploads removed');
      await this.sweepStaged(now);
    } catch (error) {
      this.options.logger.error({ err: error }, 'the upload retention sweep failed');
    }
    return removed;
  }

  private async sweepStaged(now: number): Promise<void> {
    const folder = join(this.folder, INCOMING_FOLDER);
    let count = 0;
    for (const entry of await readEntries(folder)) {
      const path = join(folder, entry.name);
      const modified = await stat(path).then(
        (info) => info.mtimeMs,
        () => undefined,
      );
      if (modified === undefined || now - modified < STAGED_MAX_AGE_MS) continue;
      await rm(path, { recursive: true, force: true });
      count += 1;
    }
    if (count > 0) this.options.logger.info({ count }, 'files of unfinished uploads removed');
  }

  private async read(id: string): Promise<UploadView | undefined> {
    let text: string;
    try {
      text = await readFile(join(this.rootOf(id), 'meta.json'), 'utf8');
    } catch {
      return undefined;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const parsed = UploadMetaSchema.safeParse(json);
    if (parsed.success && parsed.data.upload_id === id) return this.view(parsed.data);
    this.options.logger.warn({ upload_id: id }, 'ignoring an upload whose meta.json is broken');
    return undefined;
  }

  private view(meta: UploadMeta): UploadView {
    const path = join(this.rootOf(meta.upload_id), 'animations', meta.state, meta.file);
    return { ...meta, url: skinUrl(this.body.skinsDir, path) ?? '' };
  }
}
