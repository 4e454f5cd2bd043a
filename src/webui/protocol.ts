/**
 * The server-to-client messages of `/ws` as the contract defines them; the server validates, the client
 * trusts its shape. The body's and the chat's frames are the server's own declarations (type-only
 * imports, erased from the bundle). Declared here: what the client accepts beyond them (the legacy
 * `animation` message, a chat line shown before its echo), and the socket's own frames (error, pong, and
 * what the client sends), whose server side is zod in src/realtime/protocol.ts beside a Node-only parser
 * this tsconfig cannot type.
 */
import type { Lipsync } from '../audio/lipsync.ts';
import type { Viseme, VisemeCue } from '../audio/visemes.ts';
import type { Descriptor } from '../body/descriptor.ts';
import type { AnimationStateInfo, AnimationView, BodyMessage, ExpressionCue } from '../body/messages.ts';
import type { WebChatEntry, WebChatFrame } from '../chat/web-chat-frames.ts';

export type { AnimationStateInfo, AnimationView, Descriptor, ExpressionCue, Lipsync, Viseme, VisemeCue };

/** The legacy spelling: `animation` instead of `file`. */
export interface LegacyAnimationMessage {
  type: 'animation';
  animation: string;
  state: string;
  loop: boolean;
  descriptor?: Descriptor | null;
  animation_state?: AnimationStateInfo;
}

/** A chat line as the panel shows it: the server's entry, or the user's own line before its echo completes it. */
export type ChatEntry = Omit<WebChatEntry, 'username' | 'interface_path'> & Partial<Pick<WebChatEntry, 'username' | 'interface_path'>>;

export type ServerMessage = BodyMessage | LegacyAnimationMessage | WebChatFrame | { type: 'error'; code: string; message: string } | { type: 'pong' };

export type ClientMessage =
  | { type: 'hello'; token?: string; has_assets: string[] }
  | { type: 'animation_complete'; file: string; state: string }
  | { type: 'chat'; text: string; id: string }
  /** This window's voice switch: whether replies are spoken here. */
  | { type: 'voice'; speak: boolean }
  /** How far an utterance played here before it stopped: piece `seq`, `offset_s` seconds into it. */
  | { type: 'tts_heard'; utterance_id: string; seq: number; offset_s: number };
