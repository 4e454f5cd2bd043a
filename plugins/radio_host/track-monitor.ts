import type { ClockPort } from '../../src/components/contract.ts';
import type { PlayingTrack, StationSnapshot } from './station-api.ts';

/** The spec's stability re-check: a change is believed only if it is still there this much later. */
export const RECHECK_MS = 3000;
/** The spec's winding-down point: about this long before the song ends the break is scheduled. */
export const WIND_DOWN_MS = 45_000;

export interface MonitorEvents {
  /** Every successful poll (the page shows the latest). */
  snapshot(snapshot: StationSnapshot, at: number): void;
  /** A change that survived the re-check; `previous` is null for the first track seen. */
  trackChanged(previous: PlayingTrack | null, current: PlayingTrack, snapshot: StationSnapshot): void;
  /** The metadata went back to the playing song within the re-check: the change is dropped. */
  glitch(playing: PlayingTrack, shown: PlayingTrack): void;
  /** About 45 s before the end (at once for a shorter song); `endsAt` on the clock. */
  windingDown(track: PlayingTrack, endsAt: number): void;
  /** A later poll moved the end of a track already winding down. */
  endMoved(track: PlayingTrack, endsAt: number): void;
  pollFailed(error: unknown): void;
}

export interface MonitorOptions {
  clock: ClockPort;
  fetchSnapshot(): Promise<StationSnapshot>;
  pollIntervalMs(): number;
  events: MonitorEvents;
}

/**
 * Polls the station on the host's clock, guards against crossfade glitches and tells when the playing song
 * winds down. No state names: the current track, its end, and whether its wind-down has fired.
 */
export class TrackMonitor {
  private current: PlayingTrack | null = null;
  private endsAt = 0;
  private woundDown = false;
  private pollTimer: unknown;
  private windDownTimer: unknown;
  private recheckTimer: unknown;
  private running = false;
  private readonly work = new Set<Promise<void>>();

  constructor(private readonly options: MonitorOptions) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.track(this.poll());
  }

  stop(): void {
    this.running = false;
    const { clock } = this.options;
    for (const timer of [this.pollTimer, this.windDownTimer, this.recheckTimer]) clock.clearTimeout(timer);
    this.pollTimer = this.windDownTimer = this.recheckTimer = undefined;
    this.current = null;
    this.woundDown = false;
  }

  /** Resolves once every poll and re-check started so far has been handled (tests wait on it). */
  async settled(): Promise<void> {
    while (this.work.size > 0) await Promise.allSettled([...this.work]);
  }

  /** The playing track, with where it is now (elapsed counted on from the last poll). */
  playing(): { track: PlayingTrack; endsAt: number } | null {
    return this.current ? { track: this.current, endsAt: this.endsAt } : null;
  }

  private track(work: Promise<void>): void {
    this.work.add(work);
    void work.catch(() => undefined).finally(() => this.work.delete(work));
  }

  private async poll(): Promise<void> {
    try {
      const snapshot = await this.options.fetchSnapshot();
      if (this.running) this.observe(snapshot);
    } catch (error) {
      if (this.running) this.options.events.pollFailed(error);
    } finally {
      if (this.running) this.pollTimer = this.options.clock.setTimeout(() => this.track(this.poll()), this.options.pollIntervalMs());
    }
  }

  private observe(snapshot: StationSnapshot): void {
    const { events, clock } = this.options;
    events.snapshot(snapshot, clock.now());
    const shown = snapshot.current;
    if (!shown) return;
    if (!this.current) this.adopt(null, shown, snapshot);
    else if (shown.id === this.current.id) this.retime(shown);
    // A change under re-check already: the re-check decides, not this poll.
    else if (this.recheckTimer === undefined) this.recheckLater(shown);
  }

  private recheckLater(shown: PlayingTrack): void {
    const { clock } = this.options;
    this.recheckTimer = clock.setTimeout(() => {
      this.recheckTimer = undefined;
      this.track(this.recheck(shown));
    }, RECHECK_MS);
  }

  private async recheck(shown: PlayingTrack): Promise<void> {
    const { events } = this.options;
    let snapshot: StationSnapshot;
    try {
      snapshot = await this.options.fetchSnapshot();
    } catch (error) {
      if (this.running) events.pollFailed(error);
      return;
    }
    if (!this.running || !this.current) return;
    events.snapshot(snapshot, this.options.clock.now());
    const now = snapshot.current;
    if (!now) return;
    if (now.id !== this.current.id) {
      this.adopt(this.current, now, snapshot);
      return;
    }
    events.glitch(this.current, shown);
    this.retime(now);
  }

  private adopt(previous: PlayingTrack | null, current: PlayingTrack, snapshot: StationSnapshot): void {
    this.options.clock.clearTimeout(this.windDownTimer);
    this.windDownTimer = undefined;
    this.current = current;
    this.woundDown = false;
    this.retime(current);
    this.options.events.trackChanged(previous, current, snapshot);
  }

  /** The end as the latest poll puts it; the wind-down timer follows it until it has fired. */
  private retime(track: PlayingTrack): void {
    const { clock, events } = this.options;
    this.current = track;
    this.endsAt = clock.now() + Math.max(0, track.remainingS) * 1000;
    if (this.woundDown) {
      events.endMoved(track, this.endsAt);
      return;
    }
    clock.clearTimeout(this.windDownTimer);
    this.windDownTimer = clock.setTimeout(
      () => {
        this.windDownTimer = undefined;
        if (!this.running || this.current?.id !== track.id) return;
        this.woundDown = true;
        events.windingDown(track, this.endsAt);
      },
      Math.max(0, this.endsAt - WIND_DOWN_MS - clock.now()),
    );
  }
}
