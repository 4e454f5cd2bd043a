import { z } from 'zod';
import type { Clock } from '../body/clock.ts';
import { isTransientDatabaseError } from '../db/driver-errors.ts';
import type { ChatHistoryRepository } from '../db/repositories/chat-history-repository.ts';
import type { ChatHistoryRow, NewChatHistoryRow } from '../db/schema.ts';
import type { Logger } from '../logging.ts';
import { INTERFACE_PATH_MAX, InvalidInterfacePathError } from './interface-path.ts';
import { databaseToIso, MicrosecondClock, toDatabaseTimestamp, toMicros } from './timestamps.ts';
import { DEFAULT_RETRY_POLICY, WriteQueue, type RetryPolicy } from './write-queue.ts';

/** sender_name and sender_id of everything the assistant itself said. */
export const SELF_SENDER = 'self';
export const GUILD_HISTORY_LIMIT = 100;
/**
 * The path prefixes of one server ("guild") that load_chat_history_for_guild reads: the Discord and
 * Fluxer paths of the contract, and the `discord_<guild_id>_` paths of rows migrated from the older layout.
 */
const guildPrefixes = (guildId: string) => [`discord/${guildId}/`, `fluxer/${guildId}/`, `discord_${guildId}_`];
const SENDER_MAX = 255;

/** A loaded message: the contract's chat message plus who sent it. Timestamps are ISO 8601 with microseconds. */
export const HistoryMessageSchema = z.object({
  id: z.number(),
  role: z.enum(['user', 'assistant', 'system']),
  username: z.string(),
  text: z.string(),
  timestamp: z.string(),
  interface_path: z.string(),
  sender_id: z.string().nullable(),
  sender_name: z.string().nullable(),
});
export type HistoryMessage = z.infer<typeof HistoryMessageSchema>;

/** The chat message the web UI socket sends (contract "Chat over the web UI socket"). */
export const ChatMessageSchema = HistoryMessageSchema.pick({ id: true, role: true, username: true, text: true, timestamp: true, interface_path: true });
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

export interface SaveChatMessage {
  interface_path: string;
  message_text: string;
  sender_name?: string | null;
  sender_id?: string | null;
  /** Defaults to now; a (path, timestamp) already stored makes the save a no-op. */
  timestamp?: Date | string;
}

export interface SaveResult {
  /** `queued`: the database is unreachable; the message is written when it returns. */
  status: 'saved' | 'duplicate' | 'queued';
  timestamp: string;
}

/** Whether the history's database answers, for the status API and the page (`GET /api/about`, WS `database_status`). */
export interface DatabaseStatus {
  reachable: boolean;
  /** Messages held for the database's return. */
  pending_writes: number;
  /** ISO 8601; null while it answers. */
  unreachable_since: string | null;
}

/** A correction of the assistant's own newest message that reads `original` (a reply cut short by a barge-in). */
interface OwnTextEdit {
  kind: 'edit';
  interface_path: string;
  original: string;
  message_text: string;
}

/** What the retry queue holds: new rows, and corrections, in the order they were made. */
type HistoryWrite = NewChatHistoryRow | OwnTextEdit;
const isEdit = (write: HistoryWrite): write is OwnTextEdit => 'kind' in write;

export interface HistoryQuery {
  limit: number;
  /** ISO 8601. */
  since?: string;
}

export interface ChatHistoryOptions {
  repository: ChatHistoryRepository;
  /** CHAT_HISTORY, read at each save so a configuration change applies at once. */
  keep: () => number;
  logger: Logger;
  retry?: RetryPolicy;
  clock?: MicrosecondClock;
  /** The retry queue's timers (tests drive them by hand). */
  timers?: Clock;
}

function clip(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const characters = Array.from(value);
  return characters.length > SENDER_MAX ? characters.slice(0, SENDER_MAX).join('') : value;
}

export function toHistoryMessage(row: ChatHistoryRow): HistoryMessage {
  const own = row.sender_id === SELF_SENDER || row.sender_name === SELF_SENDER;
  return {
    id: row.id,
    role: own ? 'assistant' : 'user',
    username: row.sender_name ?? row.sender_id ?? '',
    text: row.message_text,
    timestamp: databaseToIso(row.timestamp),
    interface_path: row.interface_path,
    sender_id: row.sender_id,
    sender_name: row.sender_name,
  };
}

export function toChatMessage(message: HistoryMessage): ChatMessage {
  return ChatMessageSchema.parse(message);
}

export function assertInterfacePath(path: string): void {
  if (path.length === 0 || path.length > INTERFACE_PATH_MAX) {
    throw new InvalidInterfacePathError(`An interface path has 1 to ${INTERFACE_PATH_MAX} characters`);
  }
}

/** The in-process history functions of the spec (save_chat_message, load_chat_history, ...). */
export class ChatHistory {
  private readonly queue: WriteQueue<HistoryWrite, boolean>;
  private readonly clock: MicrosecondClock;
  /** Saves of one path run one after another, so two cleanups of one conversation never interleave. */
  private readonly tails = new Map<string, Promise<unknown>>();
  private readonly statusListeners = new Set<(status: DatabaseStatus) => void>();

  constructor(private readonly options: ChatHistoryOptions) {
    this.clock = options.clock ?? new MicrosecondClock();
    this.queue = new WriteQueue(
      (write) => this.write(write),
      (write) =>
        isEdit(write)
          ? { interface_path: write.interface_path, edit: true }
          : { interface_path: write.interface_path, timestamp: databaseToIso(write.timestamp) },
      options.logger.child({ component: 'history' }),
      options.retry ?? DEFAULT_RETRY_POLICY,
      {
        ...(options.timers ? { clock: options.timers } : {}),
        onReachability: () => {
          const status = this.databaseStatus;
          for (const listener of this.statusListeners) listener(status);
        },
      },
    );
  }

  get databaseStatus(): DatabaseStatus {
    const since = this.queue.unreachableSince;
    return { reachable: since === undefined, pending_writes: this.queue.size, unreachable_since: since === undefined ? null : new Date(since).toISOString() };
  }

  /** Calls `listener` each time the database stops or starts answering; returns the unsubscribe. */
  onDatabaseStatus(listener: (status: DatabaseStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  private serialize<R>(path: string, task: () => Promise<R>): Promise<R> {
    const run = (this.tails.get(path) ?? Promise.resolve()).then(task, task);
    const tail = run.catch(() => undefined);
    this.tails.set(path, tail);
    void tail.then(() => {
      if (this.tails.get(path) === tail) this.tails.delete(path);
    });
    return run;
  }

  private write(write: HistoryWrite): Promise<boolean> {
    const { repository } = this.options;
    return this.serialize(write.interface_path, () =>
      isEdit(write)
        ? repository.replaceNewestText(write.interface_path, SELF_SENDER, write.original, write.message_text)
        : repository.saveAndTrim(write, this.options.keep()),
    );
  }

  /** save_chat_message: saves, then keeps only the newest CHAT_HISTORY messages of that path. */
  async save(input: SaveChatMessage): Promise<SaveResult> {
    assertInterfacePath(input.interface_path);
    const micros = input.timestamp === undefined ? this.clock.now() : toMicros(input.timestamp);
    const row: NewChatHistoryRow = {
      interface_path: input.interface_path,
      message_text: input.message_text,
      sender_name: clip(input.sender_name),
      sender_id: clip(input.sender_id),
      timestamp: toDatabaseTimestamp(micros),
    };
    const timestamp = databaseToIso(row.timestamp);
    const outcome = await this.queue.submit(row);
    if (outcome.status === 'queued') return { status: 'queued', timestamp };
    return { status: outcome.result ? 'saved' : 'duplicate', timestamp };
  }

  /** What the assistant said, saved with sender `self` so the model sees its own replies. */
  saveOwn(interfacePath: string, text: string, timestamp?: Date | string): Promise<SaveResult> {
    return this.save({
      interface_path: interfacePath,
      message_text: text,
      sender_name: SELF_SENDER,
      sender_id: SELF_SENDER,
      ...(timestamp === undefined ? {} : { timestamp }),
    });
  }

  /**
   * The assistant's newest message of the path that reads `original` now reads `text` (a spoken reply cut
   * short: only what was heard stays). Through the retry queue, after the saves before it. False when
   * no such message is stored.
   */
  async editOwn(interfacePath: string, original: string, text: string): Promise<boolean> {
    const outcome = await this.queue.submit({ kind: 'edit', interface_path: interfacePath, original, message_text: text });
    return outcome.status === 'queued' || outcome.result;
  }

  /**
   * load_chat_history: the newest messages of one path (CHAT_HISTORY by default), oldest first. While the
   * database is unreachable, the messages of that path held for its return: an answer then still sees
   * the message it answers, and a window opened meanwhile what was said since.
   */
  async load(interfacePath: string, query: Partial<HistoryQuery> = {}): Promise<HistoryMessage[]> {
    const limit = query.limit ?? this.options.keep();
    try {
      const rows = await this.options.repository.recent(interfacePath, this.toRepositoryQuery({ limit, since: query.since }));
      return rows.map(toHistoryMessage);
    } catch (error) {
      if (!isTransientDatabaseError(error)) throw error;
      this.options.logger.warn({ err: error, interface_path: interfacePath }, 'chat history database unreachable; only the messages held for it are loaded');
      const held = this.queue.queued.filter((row): row is NewChatHistoryRow => !isEdit(row) && row.interface_path === interfacePath);
      // Not stored yet, so no row id: 0.
      return held.slice(-limit).map((row) => toHistoryMessage({ ...row, id: 0 }));
    }
  }

  /**
   * load_chat_history_for_guild: recent messages across every channel (threads included) of one server,
   * oldest first.
   */
  async loadForGuild(guildId: string, since?: string, limit = GUILD_HISTORY_LIMIT): Promise<HistoryMessage[]> {
    const rows = await this.options.repository.recentByPrefix(guildPrefixes(guildId), this.toRepositoryQuery({ limit, since }));
    return rows.map(toHistoryMessage);
  }

  /** The newest messages of one path, or of all paths, oldest first (GET /api/history/chat). */
  async list(query: HistoryQuery & { interface_path?: string }): Promise<HistoryMessage[]> {
    const repositoryQuery = this.toRepositoryQuery(query);
    const rows =
      query.interface_path === undefined
        ? await this.options.repository.recentAll(repositoryQuery)
        : await this.options.repository.recent(query.interface_path, repositoryQuery);
    return rows.map(toHistoryMessage);
  }

  async clear(interfacePath: string): Promise<number> {
    return this.serialize(interfacePath, () => this.options.repository.clear(interfacePath));
  }

  /** Replaces a conversation by `messages` (a restore), keeping the newest CHAT_HISTORY. */
  async replace(interfacePath: string, messages: Array<Pick<HistoryMessage, 'text' | 'sender_id' | 'sender_name' | 'timestamp'>>): Promise<void> {
    assertInterfacePath(interfacePath);
    const rows = messages.map((message) => ({
      interface_path: interfacePath,
      message_text: message.text,
      sender_name: clip(message.sender_name),
      sender_id: clip(message.sender_id),
      timestamp: toDatabaseTimestamp(toMicros(message.timestamp)),
    }));
    await this.serialize(interfacePath, () => this.options.repository.replace(interfacePath, rows, this.options.keep()));
  }

  /** Messages waiting for the database to come back. */
  get pendingWrites(): number {
    return this.queue.size;
  }

  /** Tries the queued messages now instead of at the next backoff step. */
  retryNow(): Promise<void> {
    return this.queue.drain();
  }

  stop(): Promise<void> {
    return this.queue.stop();
  }

  private toRepositoryQuery(query: { limit: number; since?: string | undefined }) {
    return query.since === undefined ? { limit: query.limit } : { limit: query.limit, since: toDatabaseTimestamp(toMicros(query.since)) };
  }
}
