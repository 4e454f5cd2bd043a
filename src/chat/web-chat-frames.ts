/**
 * The web chat's frames on /ws, apart from the chat itself so that the web UI can read these same
 * declarations (type-only imports) without the server code behind them.
 */
import type { TtsPlayMessage } from '../audio/vox/outlets.ts';

/** The contract's chat message `m`. Ids are strings: the client's own for an echo, the row id in a history. */
export interface WebChatEntry {
  id: string;
  role: 'user' | 'assistant' | 'system';
  username: string;
  text: string;
  timestamp: string;
  interface_path: string;
}

/** Server frames of the web chat (contract: "Chat over the web UI socket"). */
export type WebChatFrame =
  | { type: 'chat_history'; interface_path: string; messages: WebChatEntry[]; restored?: boolean }
  | ({ type: 'chat_message' } & WebChatEntry)
  | { type: 'typing'; active: boolean }
  | { type: 'chat_error'; message: string }
  /** The chat history's database stopped or started answering (sent at join while it does not). */
  | { type: 'database_status'; reachable: boolean; pending_writes: number }
  | TtsPlayMessage;
