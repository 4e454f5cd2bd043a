import type { Clock, TimerHandle } from './clock.ts';
import type { Lipsync } from '../audio/lipsync.ts';
import type { AudioState, PlayingAudio } from './messages.ts';

/** Kept after the estimated end of the audio, so a slow client is not cut short. */
export const AUDIO_CLEAR_BUFFER_MS = 1000;

export interface SpeechAudio {
  url: string;
  audio_duration_s: number;
  lipsync_data?: Lipsync;
}

/** The speech audio now playing, so late joiners resume at the right offset; clears itself when it ends. */
export class AudioTracker {
  private playing: { audio: SpeechAudio; startedAt: number } | undefined;
  private clearTimer: TimerHandle | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly onChange: (state: AudioState | null) => void,
  ) {}

  set(audio: SpeechAudio): AudioState {
    this.cancelTimer();
    this.playing = { audio, startedAt: this.clock.now() };
    this.clearTimer = this.clock.setTimeout(
      () => {
        this.clearTimer = undefined;
        this.clear();
      },
      audio.audio_duration_s * 1000 + AUDIO_CLEAR_BUFFER_MS,
    );
    // The clip starts now: offset 0, not the clock read again after arming the timer, which on a loaded
    // machine has moved a millisecond or more, and a window that seeks a clip it is just starting to that
    // offset may replay its beginning (Chromium, when the seek lands after playback has begun).
    const state: AudioState = { ...(this.playingAudio() as PlayingAudio), offset_s: 0 };
    this.onChange(state);
    return state;
  }

  clear(): void {
    this.cancelTimer();
    if (!this.playing) return;
    this.playing = undefined;
    this.onChange(null);
  }

  /** The audio with offset_s as of now, or null. offset_s comes last: snapshots write it in at each read. */
  current(): AudioState | null {
    const audio = this.playingAudio();
    return audio && { ...audio, offset_s: this.offset() };
  }

  /** Whether speech audio is playing now (until its duration plus the buffer has passed). */
  isPlaying(): boolean {
    return this.playing !== undefined;
  }

  /** What plays, without the offset (which moves with the clock), or null. */
  playingAudio(): PlayingAudio | null {
    if (!this.playing) return null;
    const { audio } = this.playing;
    return { url: audio.url, audio_duration_s: audio.audio_duration_s, lipsync_data: audio.lipsync_data ?? null };
  }

  /** Seconds played as of now; 0 while nothing plays. */
  offset(): number {
    if (!this.playing) return 0;
    const { audio, startedAt } = this.playing;
    return Math.min(audio.audio_duration_s, Math.max(0, (this.clock.now() - startedAt) / 1000));
  }

  stop(): void {
    this.cancelTimer();
  }

  private cancelTimer(): void {
    if (this.clearTimer !== undefined) this.clock.clearTimeout(this.clearTimer);
    this.clearTimer = undefined;
  }
}
