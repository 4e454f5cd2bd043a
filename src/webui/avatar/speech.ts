/**
 * Speech audio for the avatar: `tts_play` (and the body's `vrm_audio` for a window that joins while
 * speech plays). Re-dispatches `app:tts-play` and `app:lipsync`, and gives the face its viseme weights,
 * read off the audio element's own clock so the mouth follows what is heard (and stops with it).
 */
import type { Lipsync } from '../protocol.ts';
import { type Persona, resolveKey, type Weights } from './persona.ts';
import { blendVisemes, type MouthShapes } from './viseme-blend.ts';

export interface SpeechRequest {
  url: string;
  offset_s?: number;
  lipsync?: Lipsync | null;
  /** An element created ahead (the speech queue preloads the next piece), else a new one. */
  element?: HTMLAudioElement;
  /** Called once when this clip plays to its end (not when it is stopped). */
  onEnded?: () => void;
}

export class Speech {
  private audio: HTMLAudioElement | undefined;
  private url: string | undefined;
  private lipsync: Lipsync | undefined;
  private onEnded: (() => void) | undefined;
  private shown: { url: string; time: number } | undefined;
  private blocked = false;
  private readonly blockedListeners = new Set<(blocked: boolean) => void>();

  /** Told when the browser starts or stops refusing sound (autoplay policy: no user gesture yet). */
  onBlockedChange(listener: (blocked: boolean) => void): void {
    this.blockedListeners.add(listener);
    if (this.blocked) listener(true);
  }

  /**
   * Call from a user gesture (the "Tap to enable sound" button): the gesture itself lets this page play
   * sound from now on, and the speech the browser refused starts (from its beginning: the mouth waited too).
   */
  unlock(): void {
    const audio = this.audio;
    this.setBlocked(false);
    if (audio?.paused && !audio.ended) audio.play().catch((error: unknown) => this.refused(audio, error));
  }

  /** The same clip announced twice (tts_play and vrm_audio) plays once; the later request's onEnded is kept. */
  play(request: SpeechRequest): void {
    if (this.url === request.url && this.audio && !this.audio.ended) {
      if (request.onEnded) this.onEnded = request.onEnded;
      return;
    }
    this.stop();
    const audio = request.element ?? new Audio(request.url);
    this.audio = audio;
    this.url = request.url;
    this.lipsync = request.lipsync?.visemes?.length ? request.lipsync : undefined;
    this.onEnded = request.onEnded;
    if (request.offset_s) audio.currentTime = request.offset_s;
    audio.addEventListener('ended', () => {
      if (this.audio !== audio) return;
      const onEnded = this.onEnded;
      this.stop();
      onEnded?.();
    });
    audio.play().then(
      () => this.setBlocked(false),
      (error: unknown) => this.refused(audio, error),
    );
  }

  stop(): void {
    this.audio?.pause();
    this.audio = undefined;
    this.url = undefined;
    this.lipsync = undefined;
    this.onEnded = undefined;
  }

  /** Seconds left of the clip playing (Infinity while its length is not known yet); 0 when none plays (a refused one waits for the tap). */
  remaining(): number {
    const audio = this.audio;
    if (!audio || audio.paused) return 0;
    return Number.isFinite(audio.duration) ? audio.duration - audio.currentTime : Number.POSITIVE_INFINITY;
  }

  /** The clip playing (or waiting for the autoplay unlock) and its clock; undefined when none. */
  current(): { url: string; time: number } | undefined {
    return this.audio && this.url ? { url: this.url, time: this.audio.currentTime } : undefined;
  }

  /** Browsers refuse sound before the first user gesture: the avatar still moves, and the page offers a tap. */
  private refused(audio: HTMLAudioElement, error: unknown): void {
    if (this.audio === audio && error instanceof DOMException && error.name === 'NotAllowedError') this.setBlocked(true);
  }

  private setBlocked(blocked: boolean): void {
    if (blocked === this.blocked) return;
    this.blocked = blocked;
    for (const listener of this.blockedListeners) listener(blocked);
  }

  /** The persona's weights for the mouth at the audio's current time; undefined when no speech plays. */
  visemeTarget(persona: Persona): Weights | undefined {
    const audio = this.audio;
    const visemes = this.lipsync?.visemes;
    this.shown = undefined;
    if (!audio || !this.url || !visemes || audio.paused || audio.ended) return undefined;
    this.shown = { url: this.url, time: audio.currentTime };
    return visemeWeights(persona, blendVisemes(visemes, this.shown.time, this.lipsync?.duration ?? audio.duration));
  }

  /** The speech and audio time the last visemeTarget showed; undefined when it showed none. */
  position(): { url: string; time: number } | undefined {
    return this.shown;
  }
}

/**
 * The model's blend shapes for these visemes: the persona's `blendshape_map.visemes` entry when it has
 * one, else the expression the viseme names (VRM 1.0's `aa ih ou ee oh`), through blendshape_map.
 */
function visemeWeights(persona: Persona, shapes: MouthShapes): Weights {
  const weights: Weights = {};
  for (const [viseme, level] of Object.entries(shapes)) {
    const preset = persona.blendshape_map.visemes?.[viseme] ?? { [resolveKey(persona, viseme)]: 1 };
    for (const [name, weight] of Object.entries(preset)) weights[name] = Math.max(weights[name] ?? 0, weight * level);
  }
  return weights;
}

export function announceSpeech(message: { url: string; audio_duration_s?: number; lipsync?: Lipsync | null; text?: string }): void {
  window.dispatchEvent(new CustomEvent('app:tts-play', { detail: message }));
  if (message.lipsync) window.dispatchEvent(new CustomEvent('app:lipsync', { detail: message.lipsync }));
}
