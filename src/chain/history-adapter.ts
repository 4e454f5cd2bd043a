import type { Kysely } from 'kysely';
import type { DiaryPort } from '../components/contract.ts';
import type { ConfigStore } from '../config/store.ts';
import { ChatHistoryRepository } from '../db/repositories/chat-history-repository.ts';
import type { DiaryRepository } from '../db/repositories/diary.ts';
import type { Database, DialectName } from '../db/schema.ts';
import { ChatHistory, type HistoryMessage } from '../history/chat-history.ts';
import type { Logger } from '../logging.ts';

/**
 * The chain's only contact with chat history (src/history) and the diary repository: everything it needs,
 * behind two small ports, so a change of those modules touches this file only.
 */
export interface HistoryPort {
  /** Returns the stored timestamp (ISO 8601, microseconds), which orders it among the conversation's messages. */
  save(message: { interfacePath: string; text: string; senderId: string; senderName: string }): Promise<string>;
  /** What the assistant said, saved as `self`. */
  saveOwn(interfacePath: string, text: string): Promise<void>;
  /** The conversation, oldest first, the assistant's own messages included. */
  load(interfacePath: string): Promise<HistoryMessage[]>;
  stop(): Promise<void>;
}

/** Uses the process's ChatHistory when one is passed; otherwise makes one over the same database. */
export function historyPort(options: { history?: ChatHistory; db: Kysely<Database>; dialect: DialectName; config: ConfigStore; logger: Logger }): HistoryPort {
  const owned = options.history === undefined;
  const history =
    options.history ??
    new ChatHistory({
      repository: new ChatHistoryRepository(options.db, options.dialect),
      keep: () => options.config.get('CHAT_HISTORY'),
      logger: options.logger,
    });
  return {
    save: async (message) => {
      const saved = await history.save({
        interface_path: message.interfacePath,
        message_text: message.text,
        sender_id: message.senderId,
        sender_name: message.senderName || message.senderId,
      });
      return saved.timestamp;
    },
    saveOwn: async (interfacePath, text) => {
      await history.saveOwn(interfacePath, text);
    },
    load: (interfacePath) => history.load(interfacePath),
    stop: async () => {
      if (owned) await history.stop();
    },
  };
}

/** Diary entries through the diary repository (src/db/repositories/diary.ts). */
export function diaryPort(diary: DiaryRepository): DiaryPort {
  return {
    async write(entry) {
      const saved = await diary.add({ text: entry.text, interface_path: entry.interfacePath, tags: entry.tags });
      return saved.id;
    },
  };
}
