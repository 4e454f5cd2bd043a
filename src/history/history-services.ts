import { join } from 'node:path';
import type { Clock } from '../body/clock.ts';
import type { ConfigStore } from '../config/store.ts';
import type { DatabaseHandle } from '../db/dialect.ts';
import { ChatHistoryRepository } from '../db/repositories/chat-history-repository.ts';
import { DiaryRepository } from '../db/repositories/diary.ts';
import { SessionMetaRepository } from '../db/repositories/session-meta.ts';
import type { Logger } from '../logging.ts';
import { ArchiveStore } from './archive-store.ts';
import { ChatArchives } from './chat-archives.ts';
import { ChatHistory } from './chat-history.ts';
import { SessionMeta } from './session-meta.ts';
import { WebSessions } from './web-session.ts';
import type { RetryPolicy } from './write-queue.ts';

export const ARCHIVES_FOLDER = 'chat_archives';

/** Chat history, the web session, archives, session metadata and the diary, as one service group. */
export interface HistoryServices {
  chat: ChatHistory;
  sessions: WebSessions;
  archives: ChatArchives;
  sessionMeta: SessionMeta;
  diary: DiaryRepository;
  /** Stops retrying queued writes (after one last attempt). */
  stop(): Promise<void>;
}

export interface HistoryServiceOptions {
  database: DatabaseHandle;
  config: ConfigStore;
  logger: Logger;
  backups: string;
  retry?: RetryPolicy;
  /** The retry queue's timers (tests drive them by hand). */
  timers?: Clock;
}

export async function createHistoryServices(options: HistoryServiceOptions): Promise<HistoryServices> {
  const { database, config, logger } = options;
  const repository = new ChatHistoryRepository(database.db, database.dialect, database.sqlite);
  if (!(await repository.prepareFastPaths())) {
    logger.child({ component: 'history' }).info('chat history saves use a client-side transaction (the save procedure could not be installed)');
  }
  const chat = new ChatHistory({
    repository,
    keep: () => config.get('CHAT_HISTORY'),
    logger,
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.timers ? { timers: options.timers } : {}),
  });
  const sessions = await WebSessions.open({ backups: options.backups, multiSession: config.get('MULTI_SESSION'), logger });
  const sessionMeta = new SessionMeta(new SessionMetaRepository(database.db, database.dialect));
  const store = new ArchiveStore(join(options.backups, ARCHIVES_FOLDER), logger.child({ component: 'history' }));
  return {
    chat,
    sessions,
    archives: new ChatArchives({ store, history: chat, sessionMeta, logger }),
    sessionMeta,
    diary: new DiaryRepository(database.db),
    stop: () => chat.stop(),
  };
}
