import { analyzeDescriptor, DEFAULT_FPS, type Descriptor } from './descriptor.ts';
import type { AnimationStateInfo, EmotionSnapshot, PreloadAnimationMessage, VrmAnimationMessage } from './messages.ts';
import type { AnimationFile } from './skin-files.ts';

/** Where a clip is in its structure; `once` is a non-looping play without an intro. */
export type Phase = 'intro' | 'loop' | 'once' | 'outro';

/** What the body shows now. */
export interface Playing {
  state: string;
  file: AnimationFile | null;
  loop: boolean;
  phase: Phase;
  startedAt: number;
  priority: number;
  source: string | undefined;
  contextId: string | undefined;
}

function stateInfo(playing: Playing, url: string, now: number, emotions: EmotionSnapshot | undefined): AnimationStateInfo {
  const descriptor = playing.file?.descriptor ?? undefined;
  const fps = descriptor ? analyzeDescriptor(descriptor).fps : DEFAULT_FPS;
  const timeInClip = Math.max(0, (now - playing.startedAt) / 1000);
  const info: AnimationStateInfo = {
    action: playing.state,
    phase: playing.phase,
    animation: url,
    timing: {
      started_at: new Date(playing.startedAt).toISOString(),
      time_in_clip: timeInClip,
      current_frame: Math.floor(timeInClip * fps),
    },
    lipsync: false,
    priority: playing.priority,
  };
  if (descriptor && playing.file) {
    info.descriptor = descriptor;
    info.clip = { name: playing.file.name, duration: analyzeDescriptor(descriptor).durations.total, fps };
    if (descriptor.expressions) info.expressions = descriptor.expressions;
    if (descriptor.blink) info.blink = descriptor.blink;
    if (descriptor.eye_movement) info.eye_movement = descriptor.eye_movement;
  }
  if (emotions) info.emotions = emotions;
  if (playing.source !== undefined) info.source = playing.source;
  return info;
}

/** The animation command for what plays now; animation_state rides along only with a descriptor or emotions. */
export function animationMessage(playing: Playing, now: number, emotions: EmotionSnapshot | undefined): VrmAnimationMessage | undefined {
  if (!playing.file) return undefined;
  const descriptor = playing.file.descriptor;
  const message: VrmAnimationMessage = { type: 'vrm_animation', file: playing.file.url, state: playing.state, loop: playing.loop, descriptor };
  if (descriptor || emotions) message.animation_state = stateInfo(playing, playing.file.url, now, emotions);
  return message;
}

export function preloadMessage(file: AnimationFile): PreloadAnimationMessage {
  return { type: 'preload_animation', animation: file.url, descriptor: file.descriptor };
}

/** What state-change callbacks receive on every animation change. */
export interface AnimationChange {
  state: string;
  previous_state: string;
  file: string | null;
  url: string | null;
  loop: boolean;
  descriptor: Descriptor | null;
  started_at: string;
  context_id: string | null;
  source: string | null;
}

export function changeOf(playing: Playing, previousState: string): AnimationChange {
  return {
    state: playing.state,
    previous_state: previousState,
    file: playing.file?.name ?? null,
    url: playing.file?.url ?? null,
    loop: playing.loop,
    descriptor: playing.file?.descriptor ?? null,
    started_at: new Date(playing.startedAt).toISOString(),
    context_id: playing.contextId ?? null,
    source: playing.source ?? null,
  };
}
