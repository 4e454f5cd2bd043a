import { EventEmitter } from 'node:events';
import type { Logger } from '../logging.ts';
import { summarize, type ArchiveStore, type ArchiveSummary } from './archive-store.ts';
import { toChatMessage, type ChatHistory, type ChatMessage } from './chat-history.ts';
import type { SessionMeta } from './session-meta.ts';
import type { WebSession } from './web-session.ts';

/** More than any CHAT_HISTORY anyone runs; an archive takes the whole conversation. */
const ARCHIVE_MAX_MESSAGES = 100_000;

export interface HistoryRestoredEvent {
  interface_path: string;
  archive_id: string;
  /** The conversation as it now stands, oldest first, in the web UI's chat message shape. */
  messages: ChatMessage[];
}

export interface HistoryClearedEvent {
  interface_path: string;
  archive_id: string;
}

/** What the web socket hub listens to, to update connected clients. */
export interface ChatArchiveEvents {
  history_restored: [HistoryRestoredEvent];
  history_cleared: [HistoryClearedEvent];
}

export interface RestoreResult {
  restored: number;
  archived_current: string | null;
}

export interface ChatArchivesOptions {
  store: ArchiveStore;
  history: ChatHistory;
  sessionMeta: SessionMeta;
  logger: Logger;
  now?: () => Date;
}

function defaultName(metadata: Record<string, unknown>, createdAt: Date): string {
  const title = metadata.title;
  if (typeof title === 'string' && title.trim() !== '') return title.trim().slice(0, 200);
  return `Chat of ${createdAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Archive, list, download, rename, delete and restore web conversations. Operations run one at a time. */
export class ChatArchives extends EventEmitter<ChatArchiveEvents> {
  private tail: Promise<unknown> = Promise.resolve();
  private readonly now: () => Date;
  private readonly log: Logger;

  constructor(private readonly options: ChatArchivesOptions) {
    super();
    this.now = options.now ?? (() => new Date());
    this.log = options.logger.child({ component: 'history' });
  }

  private exclusive<R>(task: () => Promise<R>): Promise<R> {
    const run = this.tail.then(task, task);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** A failing listener is logged; it must not turn a completed archive or restore into an error. */
  private notify<E extends keyof ChatArchiveEvents>(event: E, ...payload: ChatArchiveEvents[E]): void {
    try {
      this.emit(event, ...(payload as never));
    } catch (error) {
      this.log.error({ err: error, event }, 'a chat archive listener failed');
    }
  }

  /** Snapshots the session's conversation into a new archive file; null when there is nothing to archive. */
  private async snapshot(session: WebSession): Promise<string | null> {
    const messages = await this.options.history.load(session.interface_path, { limit: ARCHIVE_MAX_MESSAGES });
    if (messages.length === 0) return null;
    const { metadata } = await this.options.sessionMeta.get(session.interface_path);
    const createdAt = this.now();
    const archiveId = this.options.store.newId(createdAt);
    await this.options.store.write({
      format: 1,
      archive_id: archiveId,
      name: defaultName(metadata, createdAt),
      created_at: createdAt.toISOString(),
      interface_path: session.interface_path,
      session_id: session.session_id,
      metadata,
      messages,
    });
    return archiveId;
  }

  /** Archives the current conversation and clears it (messages and metadata); null when it was empty. */
  archive(session: WebSession): Promise<string | null> {
    return this.exclusive(async () => {
      const archiveId = await this.snapshot(session);
      if (archiveId === null) return null;
      try {
        await this.options.history.clear(session.interface_path);
        await this.options.sessionMeta.clear(session.interface_path);
      } catch (error) {
        // The conversation is still there: do not leave a second copy of it behind.
        await this.options.store.remove(archiveId);
        throw error;
      }
      this.log.info({ archive_id: archiveId, interface_path: session.interface_path }, 'chat archived');
      this.notify('history_cleared', { interface_path: session.interface_path, archive_id: archiveId });
      return archiveId;
    });
  }

  list(): Promise<ArchiveSummary[]> {
    return this.options.store.list();
  }

  download(archiveId: string): Promise<Buffer | undefined> {
    return this.options.store.raw(archiveId);
  }

  /** Undefined when there is no such archive. */
  rename(archiveId: string, name: string): Promise<ArchiveSummary | undefined> {
    return this.exclusive(async () => {
      const archive = await this.options.store.read(archiveId);
      if (!archive) return undefined;
      const renamed = { ...archive, name };
      await this.options.store.write(renamed);
      return summarize(renamed);
    });
  }

  remove(archiveId: string): Promise<boolean> {
    return this.exclusive(() => this.options.store.remove(archiveId));
  }

  /**
   * Archives the current conversation (when not empty), puts the archive's messages and metadata in its
   * place (keeping the newest CHAT_HISTORY, like every save), then tells the listeners. Undefined when
   * there is no such archive.
   */
  restore(archiveId: string, session: WebSession): Promise<RestoreResult | undefined> {
    return this.exclusive(async () => {
      const archive = await this.options.store.read(archiveId);
      if (!archive) return undefined;
      const archivedCurrent = await this.snapshot(session);
      await this.options.history.replace(session.interface_path, archive.messages);
      await this.options.sessionMeta.replace(session.interface_path, archive.metadata);
      const messages = (await this.options.history.load(session.interface_path, { limit: ARCHIVE_MAX_MESSAGES })).map(toChatMessage);
      this.log.info({ archive_id: archiveId, archived_current: archivedCurrent, restored: messages.length }, 'chat restored');
      this.notify('history_restored', { interface_path: session.interface_path, archive_id: archiveId, messages });
      return { restored: messages.length, archived_current: archivedCurrent };
    });
  }
}
