/**
 * The server-to-client messages of `/ws` as the contract defines them; the server validates, the client
 * trusts its shape. Shapes the server emits exactly are its own types (type-only imports, erased from the
 * bundle); the client's own types below accept more than the server sends today (the spec's optional
 * animation_state fields, the legacy `animation` message).
 */
import type { Descriptor } from '../body/descriptor.ts';
import type {
  AnimationStateSummaryMessage,
  PreloadAnimationMessage,
  VrmExpressionClearMessage,
  VrmExpressionSetMessage,
  VrmFaceMessage,
  VrmModelMessage,
} from '../body/messages.ts';

export type { Descriptor };

export interface ExpressionCue {
  start_frame: number;
  end_frame: number;
  targets: Record<string, number>;
  source?: string;
  priority?: number;
}

export interface AnimationState {
  action?: string;
  phase?: string;
  animation?: string;
  descriptor?: Descriptor;
  clip?: { name: string; duration: number; fps: number };
  timing?: { started_at: string; time_in_clip: number; current_frame: number };
  expressions?: ExpressionCue[];
  blink?: { auto?: boolean; rate_s?: number; intensity?: number };
  eye_movement?: { auto?: boolean; saccade_rate_s?: number };
  emotions?: { dominant?: string; values: Record<string, number> };
  lipsync?: boolean;
  priority?: number;
  source?: string;
}

export interface VrmAnimationMessage {
  type: 'vrm_animation';
  file: string;
  state: string;
  loop: boolean;
  reset_eyes?: boolean;
  descriptor: Descriptor | null;
  animation_state?: AnimationState;
}

/** The legacy spelling: `animation` instead of `file`. */
export interface LegacyAnimationMessage {
  type: 'animation';
  animation: string;
  state: string;
  loop: boolean;
  descriptor?: Descriptor | null;
  animation_state?: AnimationState;
}

export interface LipsyncData {
  mouths: Array<{ time: number; value: string }>;
  duration: number;
}

export interface ChatEntry {
  id: string;
  role: 'user' | 'assistant' | 'system';
  username?: string;
  text: string;
  timestamp: string;
  interface_path?: string;
}

export type ServerMessage =
  | VrmAnimationMessage
  | LegacyAnimationMessage
  | VrmModelMessage
  | VrmFaceMessage
  | VrmExpressionSetMessage
  | VrmExpressionClearMessage
  | PreloadAnimationMessage
  | AnimationStateSummaryMessage
  | { type: 'vrm_audio'; audio: { url: string; audio_duration_s: number; offset_s: number; lipsync_data?: LipsyncData | null } | null }
  | { type: 'tts_play'; url: string; audio_duration_s?: number; lipsync?: LipsyncData | null; text?: string }
  | { type: 'chat_history'; messages: ChatEntry[]; restored?: boolean }
  | ({ type: 'chat_message' } & ChatEntry)
  | { type: 'typing'; active: boolean }
  | { type: 'chat_error'; message: string }
  | { type: 'error'; code: string; message: string }
  | { type: 'pong' };

export type ClientMessage =
  | { type: 'hello'; token?: string; has_assets: string[] }
  | { type: 'animation_complete'; file: string; state: string }
  | { type: 'chat'; text: string; id: string };

/** `GET /api/animation_state`, polled after a reconnect. */
export interface AnimationStateSnapshot {
  state: string;
  file: string | null;
  url: string | null;
  loop: boolean;
  phase?: string;
  descriptor: Descriptor | null;
  started_at: string;
}
