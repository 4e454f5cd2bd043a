/**
 * The body's wire shapes: the messages its sockets carry and the state its HTTP API returns. The web UI
 * reads these same declarations (type-only imports), so server and client cannot drift apart.
 */
import type { Lipsync } from '../audio/lipsync.ts';
import type { Descriptor } from './descriptor.ts';

/** Frame and time facts that let a client join a clip part-way. */
export interface AnimationTiming {
  started_at: string;
  time_in_clip: number;
  current_frame: number;
}

export interface EmotionSnapshot {
  dominant: string;
  values: Record<string, number>;
}

/** A face cue of the spec's animation_state: targets (logical keys) held between two frames of the clip. */
export interface ExpressionCue {
  start_frame: number;
  end_frame: number;
  targets: Record<string, number>;
  source?: string;
  priority?: number;
}

/**
 * The optional rich companion of an animation command (spec: "animation_state object"). The cue fields
 * (expressions, blink, eye_movement) come from the clip's descriptor; the web UI honours them.
 */
export interface AnimationStateInfo {
  action: string;
  phase: string;
  animation: string;
  descriptor?: Descriptor;
  clip?: { name: string; duration: number; fps: number };
  timing: AnimationTiming;
  expressions?: ExpressionCue[];
  blink?: { auto?: boolean; rate_s?: number; intensity?: number };
  eye_movement?: { auto?: boolean; saccade_rate_s?: number };
  emotions?: EmotionSnapshot;
  lipsync: boolean;
  priority: number;
  source?: string;
}

export interface VrmAnimationMessage {
  type: 'vrm_animation';
  /** URL path of the animation file. */
  file: string;
  state: string;
  loop: boolean;
  /** Only on a play targeted at one session; never in broadcasts. */
  reset_eyes?: true;
  descriptor: Descriptor | null;
  animation_state?: AnimationStateInfo;
}

export interface VrmModel {
  name: string;
  url: string;
  hash?: string;
}

export interface VrmModelMessage extends VrmModel {
  type: 'vrm_model';
}

export interface VrmFaceMessage {
  type: 'vrm_face';
  values: Record<string, number>;
}

export interface VrmExpressionSetMessage {
  type: 'vrm_expression_set';
  name: string;
  intensity: number;
}

export interface VrmExpressionClearMessage {
  type: 'vrm_expression_clear';
}

export interface PreloadAnimationMessage {
  type: 'preload_animation';
  animation: string;
  descriptor: Descriptor | null;
}

export interface AudioState {
  url: string;
  audio_duration_s: number;
  /** Vox's lip-sync timeline, validated where it is made. */
  lipsync_data: Lipsync | null;
  /** Seconds already played, for a client that joins late. */
  offset_s: number;
}

/** The speech audio without its offset, which moves with the clock. */
export type PlayingAudio = Omit<AudioState, 'offset_s'>;

/** Speech audio now playing (or `audio: null` when it ended). */
export interface VrmAudioMessage {
  type: 'vrm_audio';
  audio: AudioState | null;
}

export type ExpressionMessage = VrmExpressionSetMessage | VrmExpressionClearMessage;

/** The spec's lightweight summary of the active animation, for a client that arrives after the command. */
export interface AnimationStateSummaryMessage {
  type: 'animation_state';
  state: string;
  /** The file name only, for example `Idle.fbx`. */
  animation_file: string;
}

export type BodyMessage =
  | VrmAnimationMessage
  | VrmModelMessage
  | VrmFaceMessage
  | VrmExpressionSetMessage
  | VrmExpressionClearMessage
  | PreloadAnimationMessage
  | VrmAudioMessage
  | AnimationStateSummaryMessage;

/** The animation part of the full state (a superset of the spec's in-process and HTTP shapes). */
export interface AnimationView {
  state: string;
  file: string | null;
  url: string | null;
  loop: boolean;
  phase: string;
  descriptor: Descriptor | null;
  started_at: string;
  priority: number;
  contexts: string[];
}

export interface FullBodyState {
  vrm_model: VrmModel | null;
  animation: AnimationView;
  face_values: Record<string, number>;
  audio: AudioState | null;
}
