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

/** One turn's stage times in seconds, for the latency panel (`stt` and `voice_loop` for spoken turns only). */
export interface TurnStages {
  stt?: number;
  llm_first_token?: number;
  llm_total?: number;
  tts_first_audio?: number;
  voice_loop?: number;
  chain?: number;
}

/** Server frames of the web chat (contract: "Chat over the web UI socket"). */
export type WebChatFrame =
  | { type: 'chat_history'; interface_path: string; messages: WebChatEntry[]; restored?: boolean }
  | ({ type: 'chat_message' } & WebChatEntry)
  | { type: 'typing'; active: boolean }
  | { type: 'chat_error'; message: string }
  /** The chat history's database stopped or started answering (sent at join while it does not). */
  | { type: 'database_status'; reachable: boolean; pending_writes: number }
  /** A piece of the reply `id` as the model writes it; its final chat_message carries the same id and the whole text. */
  | { type: 'chat_delta'; id: string; text: string }
  /** Stop playing that utterance at once and drop its queued pieces (a barge-in). */
  | { type: 'tts_stop'; utterance_id: string }
  /**
   * The utterance ends with piece `seq`, sent without `last` because more was to follow, when what
   * followed could not be synthesised: the window plays what it has and knows the utterance is over.
   */
  | { type: 'tts_end'; utterance_id: string; seq: number }
  /** Sent when a turn ends. */
  | { type: 'turn_stages'; interface_path: string; stages: TurnStages }
  | TtsPlayMessage;
