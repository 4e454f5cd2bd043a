import type { PlayingTrack } from './station-api.ts';

/**
 * The station's clock as ours sees it. AzuraCast counts in whole seconds of its own clock: `played_at` is
 * the whole second the song was registered in (plus a constant delay in some versions) and `elapsed` is
 * `time() - ` that second, so `played_at + elapsed` is the whole second the server was in while it answered,
 * some moment between our sending the poll and receiving the answer. Each poll bounds the offset between the
 * clocks; polls at other fractions of a second (the fast polls near a song's end) narrow it.
 */
export class StationClock {
  /** Server ms = our ms + offset, with the offset in [lo, hi). */
  private lo = Number.NEGATIVE_INFINITY;
  private hi = Number.POSITIVE_INFINITY;

  /** The server was in whole second `second` at a moment between `sentAt` and `receivedAt` (our clock). */
  observe(second: number, sentAt: number, receivedAt: number): void {
    const lo = second * 1000 - receivedAt;
    const hi = (second + 1) * 1000 - sentAt;
    const narrowedLo = Math.max(this.lo, lo);
    const narrowedHi = Math.min(this.hi, hi);
    // Bounds that contradict each other: the server's clock was set, or another server answers. Start again.
    if (narrowedLo >= narrowedHi) [this.lo, this.hi] = [lo, hi];
    else [this.lo, this.hi] = [narrowedLo, narrowedHi];
  }

  /** The latest moment on our clock at which the server's whole second `second` can begin. */
  latestStartOf(second: number): number {
    return second * 1000 - this.lo;
  }

  reset(): void {
    this.lo = Number.NEGATIVE_INFINITY;
    this.hi = Number.POSITIVE_INFINITY;
  }
}

/** A poll's answer for the playing song, with when it went out and came back on our clock. */
export interface SongPoll {
  track: PlayingTrack;
  sentAt: number;
  receivedAt: number;
}

/** The whole second the server was in when it answered, if the answer says it (elapsed not clamped). */
export function serverSecond({ track }: SongPoll): number | null {
  const { playedAt, durationS, elapsedS, remainingS } = track;
  // AzuraCast clamps `elapsed` to the duration once it is reached: only a running count tells the time.
  if (playedAt <= 0 || durationS <= 0 || remainingS <= 0 || elapsedS < 0) return null;
  return playedAt + elapsedS;
}

/**
 * The latest moment (our clock) the playing song can end, so a break begun then never cuts it; null when
 * the station gives no duration (a live streamer, a stream): only the track change tells its end then.
 *
 * The song began within its whole second `played_at`, so no later than the start of the next one
 * (`clock`), and no later than the first answer that showed it (`shownBy`). It ends `duration` after that:
 * AzuraCast gives the duration in whole seconds too, so a file's fraction of a second beyond it is
 * invisible to every client (see docs/decisions.md, "RADIO").
 */
export function latestEnd(poll: SongPoll, clock: StationClock, shownBy: number): number | null {
  const { durationS, playedAt, remainingS } = poll.track;
  if (durationS <= 0) return null;
  // Without `played_at`, this answer alone: the server's second began before it came back.
  const fromClock = playedAt > 0 ? clock.latestStartOf(playedAt + 1) : poll.receivedAt + (remainingS - durationS + 1) * 1000;
  return Math.min(fromClock, shownBy) + durationS * 1000;
}
