import type { Clock, TimerHandle } from '../../body/clock.ts';
import type { Lipsync } from '../lipsync.ts';

/** The body as Vox needs it: show the audio (late joiners resume it) and talk for its duration. */
export interface SpeakingBody {
  speak(audio: { url: string; durationS: number; lipsync: Lipsync | null }): void;
  /** Stops the audio and the talk at once (a barge-in). */
  silence(): void;
}

/** One piece on the schedule: when it starts and ends playing, on the clock (epoch ms). */
export interface ScheduledPiece {
  seq: number;
  startsAt: number;
  endsAt: number;
}

/**
 * The body's side of one streamed utterance: each piece goes on the body (vrm_audio and talk, which late
 * joiners resume) when the one before it has ended, as a window plays them back to back, so the body
 * talks continuously. The same timeline tells which pieces were fully played when nobody reports it.
 */
export class SpeechSchedule {
  private readonly pieces: ScheduledPiece[] = [];
  private readonly timers = new Set<TimerHandle>();
  private stopped = false;

  constructor(
    private readonly clock: Clock,
    private readonly body: SpeakingBody | undefined,
  ) {}

  /** Queues a piece behind the previous one (now, when nothing is playing). */
  add(seq: number, audio: { url: string; durationS: number; lipsync: Lipsync | null }): void {
    if (this.stopped) return;
    const now = this.clock.now();
    const startsAt = Math.max(now, this.pieces.at(-1)?.endsAt ?? now);
    this.pieces.push({ seq, startsAt, endsAt: startsAt + audio.durationS * 1000 });
    if (!this.body) return;
    if (startsAt <= now) {
      this.body.speak(audio);
      return;
    }
    const timer = this.clock.setTimeout(() => {
      this.timers.delete(timer);
      this.body?.speak(audio);
    }, startsAt - now);
    this.timers.add(timer);
  }

  /** True while a piece plays or waits on the timeline. */
  get playing(): boolean {
    return !this.stopped && (this.pieces.at(-1)?.endsAt ?? 0) > this.clock.now();
  }

  /** The pieces whose playback had ended by `at` (epoch ms on the clock), in order. */
  endedBy(at: number): number[] {
    return this.pieces.filter((piece) => piece.endsAt <= at).map((piece) => piece.seq);
  }

  /** Barge-in: nothing more goes on the body, and what it says now stops. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    for (const timer of this.timers) this.clock.clearTimeout(timer);
    this.timers.clear();
    const now = this.clock.now();
    if (this.pieces.some((piece) => piece.startsAt <= now && piece.endsAt > now)) this.body?.silence();
  }
}
