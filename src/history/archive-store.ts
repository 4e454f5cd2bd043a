import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Logger } from '../logging.ts';
import { HistoryMessageSchema } from './chat-history.ts';

/**
 * Archive ids are the only thing that becomes a file name, and only after this check: letters, digits,
 * `-` and `_`, so no id can climb out of the archive folder. Names live inside the JSON.
 */
const ARCHIVE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
const ARCHIVE_FILE = /^([A-Za-z0-9][A-Za-z0-9_-]{0,127})\.json$/;

export const ArchiveFileSchema = z.object({
  format: z.literal(1).default(1),
  archive_id: z.string(),
  name: z.string(),
  created_at: z.string(),
  interface_path: z.string(),
  session_id: z.string().nullable().default(null),
  metadata: z.record(z.string(), z.unknown()).default({}),
  messages: z.array(HistoryMessageSchema),
});
export type ArchiveFile = z.infer<typeof ArchiveFileSchema>;

export const ArchiveSummarySchema = z.object({
  archive_id: z.string(),
  name: z.string(),
  created_at: z.string(),
  message_count: z.number(),
  interface_path: z.string(),
});
export type ArchiveSummary = z.infer<typeof ArchiveSummarySchema>;

export class CorruptArchiveError extends Error {}

export function isArchiveId(id: string): boolean {
  return ARCHIVE_ID.test(id);
}

export function summarize(archive: ArchiveFile): ArchiveSummary {
  return {
    archive_id: archive.archive_id,
    name: archive.name,
    created_at: archive.created_at,
    message_count: archive.messages.length,
    interface_path: archive.interface_path,
  };
}

/** The JSON snapshots under `<backups>/chat_archives/`, one file per archive. */
export class ArchiveStore {
  constructor(
    readonly directory: string,
    private readonly log: Pick<Logger, 'warn'>,
  ) {}

  private file(id: string): string {
    if (!isArchiveId(id)) throw new CorruptArchiveError(`Invalid archive id: ${id}`);
    return join(this.directory, `${id}.json`);
  }

  /** Sortable by time, unique by its random tail. */
  newId(now: Date): string {
    return `${now
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z')
      .replace('T', '-')}-${randomBytes(4).toString('hex')}`;
  }

  /** Written to a temporary name and renamed, so a reader never sees half an archive. */
  async write(archive: ArchiveFile): Promise<void> {
    const target = this.file(archive.archive_id);
    await mkdir(this.directory, { recursive: true });
    const partial = `${target}.${randomBytes(4).toString('hex')}.partial`;
    await writeFile(partial, `${JSON.stringify(archive, null, 2)}\n`, 'utf8');
    await rename(partial, target);
  }

  /** The raw file, for download; undefined when there is none (or the id is invalid). */
  async raw(id: string): Promise<Buffer | undefined> {
    if (!isArchiveId(id)) return undefined;
    try {
      return await readFile(this.file(id));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** Undefined when missing; CorruptArchiveError when the file is not a valid archive. */
  async read(id: string): Promise<ArchiveFile | undefined> {
    const raw = await this.raw(id);
    if (raw === undefined) return undefined;
    try {
      return ArchiveFileSchema.parse({ ...(JSON.parse(raw.toString('utf8')) as object), archive_id: id });
    } catch (error) {
      throw new CorruptArchiveError(`Archive ${id} is not readable: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Newest first; unreadable files are skipped with a warning. */
  async list(): Promise<ArchiveSummary[]> {
    let names: string[];
    try {
      names = await readdir(this.directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const summaries: ArchiveSummary[] = [];
    for (const name of names) {
      const id = ARCHIVE_FILE.exec(name)?.[1];
      if (!id) continue;
      try {
        const archive = await this.read(id);
        if (archive) summaries.push(summarize(archive));
      } catch (error) {
        this.log.warn({ err: error, archive_id: id }, 'skipping an unreadable chat archive');
      }
    }
    return summaries.sort((a, b) => b.created_at.localeCompare(a.created_at) || b.archive_id.localeCompare(a.archive_id));
  }

  async remove(id: string): Promise<boolean> {
    if (!isArchiveId(id)) return false;
    try {
      await unlink(this.file(id));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }
}
