/**
 * Speech audio for the avatar: `tts_play` (and the body's `vrm_audio` for a window that joins while
 * speech plays). Re-dispatches `app:tts-play` and `app:lipsync`, and gives the face its viseme weights.
 */
import type { LipsyncData } from '../protocol.ts';
import type { Persona, Weights } from './persona.ts';

export interface SpeechRequest {
  url: string;
  offset_s?: number;
  lipsync?: LipsyncData | null;
}

export class Speech {
  private audio: HTMLAudioElement | undefined;
  private url: string | undefined;
  private lipsync: LipsyncData | undefined;

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
    // Browsers refuse sound before the first user gesture; the avatar still moves, so stay quiet about it.
    audio.play().catch(() => undefined);
  }

  stop(): void {
    this.audio?.pause();
    this.audio = undefined;
    this.url = undefined;
    this.lipsync = undefined;
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

export function announceSpeech(message: { url: string; audio_duration_s?: number; lipsync?: LipsyncData | null; text?: string }): void {
  window.dispatchEvent(new CustomEvent('app:tts-play', { detail: message }));
  if (message.lipsync) window.dispatchEvent(new CustomEvent('app:lipsync', { detail: message.lipsync }));
}
