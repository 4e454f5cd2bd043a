import type { ClockPort } from '../../src/components/contract.ts';
import { latestEnd, type SongPoll, StationClock, serverSecond } from './song-end.ts';
import type { PlayingTrack, StationSnapshot } from './station-api.ts';

/** The spec's stability re-check: a change is believed only if it is still there this much later. */
export const RECHECK_MS = 3000;
/** The spec's winding-down point: about this long before the song ends the break is scheduled. */
export const WIND_DOWN_MS = 45_000;
/**
 * Around a song's end the station is polled this often, so the next song's start is seen within it (its
 * end, where the next break may be, follows from that) and the clocks' offset is learnt at other fractions
 * of a second. From FAST_BEFORE_MS before the latest end until the change is seen or FAST_AFTER_MS after.
 */
export const FAST_POLL_MS = 250;
export const FAST_BEFORE_MS = 2000;
export const FAST_AFTER_MS = 5000;

export interface MonitorEvents {
  /** Every successful poll (the page shows the latest). */
  snapshot(snapshot: StationSnapshot, at: number): void;
  /** A change that survived the re-check; `previous` is null for the first track seen. */
  trackChanged(previous: PlayingTrack | null, current: PlayingTrack, snapshot: StationSnapshot): void;
  /** The metadata went back to the playing song within the re-check: the change is dropped. */
  glitch(playing: PlayingTrack, shown: PlayingTrack): void;
  /** About 45 s before the latest end (at once for a shorter song); `endsAt` on the clock. */
  windingDown(track: PlayingTrack, endsAt: number): void;
  /** A later poll moved the end of a track already winding down. */
  endMoved(track: PlayingTrack, endsAt: number): void;
  pollFailed(error: unknown): void;
}

interface Answer {
  snapshot: StationSnapshot;
  sentAt: number;
  receivedAt: number;
}

export interface MonitorOptions {
  clock: ClockPort;
  fetchSnapshot(): Promise<StationSnapshot>;
  pollIntervalMs(): number;
  events: MonitorEvents;
}

/**
 * Polls the station on the host's clock, guards against crossfade glitches and tells when the playing song
 * winds down. No state names: the current track, its latest end (null: unknown), whether its wind-down has
 * fired, and the first answer that showed a track other than the current one.
 */
export class TrackMonitor {
  private current: PlayingTrack | null = null;
  private endsAt: number | null = null;
  private woundDown = false;
  /** Learnt from every answer, kept across songs (the station's clock does not change with them). */
  private readonly stationClock = new StationClock();
  /** The first answer showing a new play (song and `played_at`): its start came before that answer. */
  private sighting: { play: string; at: number } | undefined;
  /** The current play and the answer time its start is bounded by. */
  private started: { play: string; by: number } | undefined;
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
    this.endsAt = null;
    this.woundDown = false;
    this.sighting = this.started = undefined;
    this.stationClock.reset();
  }

  /** Resolves once every poll and re-check started so far has been handled (tests wait on it). */
  async settled(): Promise<void> {
    while (this.work.size > 0) await Promise.allSettled([...this.work]);
  }

  /** The playing track and its latest end (null: the station gives no duration). */
  playing(): { track: PlayingTrack; endsAt: number | null } | null {
    return this.current ? { track: this.current, endsAt: this.endsAt } : null;
  }

  private track(work: Promise<void>): void {
    this.work.add(work);
    void work.catch(() => undefined).finally(() => this.work.delete(work));
  }

  /** One answer from the station, with when it went out and came back. */
  private async ask(): Promise<Answer> {
    const sentAt = this.options.clock.now();
    const snapshot = await this.options.fetchSnapshot();
    return { snapshot, sentAt, receivedAt: this.options.clock.now() };
  }

  private async poll(): Promise<void> {
    try {
      const answer = await this.ask();
      if (this.running) this.observe(answer);
    } catch (error) {
      if (this.running) this.options.events.pollFailed(error);
    } finally {
      if (this.running) this.pollTimer = this.options.clock.setTimeout(() => this.track(this.poll()), this.nextPollMs());
    }
  }

  /** The poll interval, but fast polls around the playing song's latest end, and never past their start. */
  private nextPollMs(): number {
    const interval = this.options.pollIntervalMs();
    if (this.endsAt === null) return interval;
    const now = this.options.clock.now();
    if (now >= this.endsAt + FAST_AFTER_MS) return interval;
    if (now >= this.endsAt - FAST_BEFORE_MS) return Math.min(interval, FAST_POLL_MS);
    return Math.min(interval, this.endsAt - FAST_BEFORE_MS - now);
  }

  private observe({ snapshot, sentAt, receivedAt }: Answer): void {
    const { events } = this.options;
    events.snapshot(snapshot, receivedAt);
    const shown = snapshot.current;
    // While a broadcaster is live (our own banter, a DJ) now-playing shows the broadcast, not a song of the
    // station's: it is no track change, and the song it interrupted stays the current one.
    if (!shown || snapshot.liveStreamer !== null) return;
    const poll = { track: shown, sentAt, receivedAt };
    this.learn(poll);
    if (!this.current) this.adopt(null, poll, snapshot);
    else if (shown.id === this.current.id) this.retime(poll);
    // A change under re-check already: the re-check decides, not this poll.
    else if (this.recheckTimer === undefined) this.recheckLater(shown);
  }

  /** The station's clock from the answer, and when a play other than the current one was first shown. */
  private learn(poll: SongPoll): void {
    const second = serverSecond(poll);
    if (second !== null) this.stationClock.observe(second, poll.sentAt, poll.receivedAt);
    const play = `${poll.track.id}@${poll.track.playedAt}`;
    if (poll.track.id === this.current?.id) this.sighting = undefined;
    else if (this.sighting?.play !== play) this.sighting = { play, at: poll.receivedAt };
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
    // A poll that was under way when the last re-check fired started this one for a change already adopted.
    if (shown.id === this.current?.id) return;
    let answer: Answer;
    try {
      answer = await this.ask();
    } catch (error) {
      if (this.running) events.pollFailed(error);
      return;
    }
    if (!this.running || !this.current) return;
    const { snapshot, receivedAt } = answer;
    events.snapshot(snapshot, receivedAt);
    const now = snapshot.current;
    if (!now || snapshot.liveStreamer !== null) return;
    const poll = { track: now, sentAt: answer.sentAt, receivedAt };
    this.learn(poll);
    if (now.id === this.current.id) {
      events.glitch(this.current, shown);
      this.retime(poll);
      return;
    }
    // Neither the song before nor the one shown: the shown one (a jingle, a short track) played in between
    // and ended before the re-check. It counts as played, so a break due at its end goes out now.
    if (now.id !== shown.id) {
      events.trackChanged(this.current, shown, snapshot);
      this.current = shown;
    }
    this.adopt(this.current, poll, snapshot);
  }

  private adopt(previous: PlayingTrack | null, poll: SongPoll, snapshot: StationSnapshot): void {
    this.options.clock.clearTimeout(this.windDownTimer);
    this.windDownTimer = undefined;
    this.current = poll.track;
    this.woundDown = false;
    this.retime(poll);
    this.options.events.trackChanged(previous, poll.track, snapshot);
  }

  /** The latest end as the answers so far put it; the wind-down timer follows it until it has fired. */
  private retime(poll: SongPoll): void {
    const { clock, events } = this.options;
    const track = poll.track;
    this.current = track;
    const play = `${track.id}@${track.playedAt}`;
    if (this.started?.play !== play) this.started = { play, by: this.sighting?.play === play ? this.sighting.at : poll.receivedAt };
    this.endsAt = latestEnd(poll, this.stationClock, this.started.by);
    const endsAt = this.endsAt;
    if (endsAt === null) {
      // No duration: no wind-down; the track change tells the end.
      clock.clearTimeout(this.windDownTimer);
      this.windDownTimer = undefined;
      return;
    }
    if (this.woundDown) {
      events.endMoved(track, endsAt);
      return;
    }
    clock.clearTimeout(this.windDownTimer);
    this.windDownTimer = clock.setTimeout(
      () => {
        this.windDownTimer = undefined;
        if (!this.running || this.current?.id !== track.id) return;
        this.woundDown = true;
        events.windingDown(track, endsAt);
      },
      Math.max(0, endsAt - WIND_DOWN_MS - clock.now()),
    );
  }
}
