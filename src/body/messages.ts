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

/** The optional rich companion of an animation command (spec: "animation_state object"). */
export interface AnimationStateInfo {
  action: string;
  phase: string;
  animation: string;
  descriptor?: Descriptor;
  clip?: { name: string; duration: number; fps: number };
  timing: AnimationTiming;
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

/** Lip-sync data as the contract defines it; kept opaque here, validated where it enters. */
export type LipsyncData = unknown;

export interface AudioState {
  url: string;
  audio_duration_s: number;
  /** Seconds already played, for a client that joins late. */
  offset_s: number;
  lipsync_data: LipsyncData;
}

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
