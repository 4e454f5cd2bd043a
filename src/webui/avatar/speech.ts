/**
 * Speech audio for the avatar: `tts_play` (and the body's `vrm_audio` for a window that joins while
 * speech plays). Re-dispatches `app:tts-play` and `app:lipsync`, and gives the face its viseme weights.
 */
import type { Lipsync } from '../protocol.ts';
import type { Persona, Weights } from './persona.ts';

export interface SpeechRequest {
  url: string;
  offset_s?: number;
  lipsync?: Lipsync | null;
}

export class Speech {
  private audio: HTMLAudioElement | undefined;
  private url: string | undefined;
  private lipsync: Lipsync | undefined;
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

  /** The same clip announced twice (tts_play and vrm_audio) plays once. */
  play(request: SpeechRequest): void {
    if (this.url === request.url && this.audio && !this.audio.ended) return;
    this.stop();
    const audio = new Audio(request.url);
    this.audio = audio;
    this.url = request.url;
    this.lipsync = request.lipsync?.mouths?.length ? request.lipsync : undefined;
    if (request.offset_s) audio.currentTime = request.offset_s;
    audio.addEventListener('ended', () => {
      if (this.audio === audio) this.stop();
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

  /** The persona's weights for the mouth shape at the audio's current time; empty when silent. */
  visemeTarget(persona: Persona): Weights {
    const audio = this.audio;
    const mouths = this.lipsync?.mouths;
    if (!audio || !mouths || audio.paused) return {};
    const time = audio.currentTime;
    let letter = 'X';
    for (const mouth of mouths) {
      if (mouth.time > time) break;
      letter = mouth.value;
    }
    return persona.blendshape_map.visemes?.[letter] ?? {};
  }
}

export function announceSpeech(message: { url: string; audio_duration_s?: number; lipsync?: Lipsync | null; text?: string }): void {
  window.dispatchEvent(new CustomEvent('app:tts-play', { detail: message }));
  if (message.lipsync) window.dispatchEvent(new CustomEvent('app:lipsync', { detail: message.lipsync }));
}
