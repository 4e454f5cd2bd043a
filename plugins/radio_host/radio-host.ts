import type { Logger } from 'pino';
import type { ActivityPort, ClockPort } from '../../src/components/contract.ts';
import type { BanterEncodings } from './banter-encodings.ts';
import type { BanterPlanner, PreparedBanter } from './banter-planner.ts';
import type { Transition } from './banter-text.ts';
import type { BanterInjection, InjectionResult } from './injection/index.ts';
import type { PlayingTrack, StationSnapshot, Track } from './station-api.ts';
import { TrackMonitor } from './track-monitor.ts';

/** The contract's activity kinds; stored in the activity log as `radio.<kind>`. */
export type RadioActivityKind = 'track' | 'glitch' | 'banter_ready' | 'injected' | 'skipped' | 'error';
export const ACTIVITY_PREFIX = 'radio.';

/** The injection half (`injection/index.ts`, `injectBanter`). */
export type Inject = (request: BanterInjection) => Promise<InjectionResult>;

/** The settings as one read of the configuration. */
export interface RadioSettings {
  enabled: boolean;
  baseUrl: string;
  stationId: string;
  pollIntervalS: number;
  intermission: number;
  announceNext: boolean;
  gainDb: number;
  webdjUrl: string;
  username: string;
  password: string;
}

export interface RadioHostDependencies {
  clock: ClockPort;
  settings(): RadioSettings;
  fetchSnapshot(settings: RadioSettings): Promise<StationSnapshot>;
  /** The upcoming tracks (STATION_API_KEY); asked only when the next song is announced. */
  fetchQueue(settings: RadioSettings): Promise<Track[]>;
  inject: Inject;
  planner: BanterPlanner;
  /** The planner's spoken lines, encoded for the air ahead of their break. */
  encodings: BanterEncodings;
  activity: ActivityPort;
  logger: Logger;
}

/** `disabled`: RADIO_HOST_ENABLED is false; `unconfigured`: no station named; `on_air`: a break is being sent. */
export type RadioState = 'disabled' | 'unconfigured' | 'monitoring' | 'on_air';

/**
 * A scheduled break is primed this long before the song's latest end: logged in and buffered just short of
 * playing, so going live at the end costs the harbor only a small top-up (docs/decisions.md, "RADIO").
 */
export const PRIME_LEAD_MS = 1500;

interface ScheduledBreak {
  trackId: string;
  transition: Transition;
  endsAt: number;
  timer: unknown;
  /** Set once primed: the rest is sent and the harbor begins playing. */
  goLive?: () => void;
}

/** Variables that change which station is followed, or whether one is. */
const RESTART_KEYS = new Set(['RADIO_HOST_ENABLED', 'STATION_BASE_URL', 'STATION_ID']);

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
const describe = (track: Track) => `"${track.title}"${track.artist ? ` by ${track.artist}` : ''}`;

/**
 * The radio DJ: follows the station through the track monitor, counts songs for RADIO_HOST_INTERMISSION,
 * starts each break exactly at the end of the song (going live earlier would skip the rest of it), or at
 * once when the wind-down point was missed, and records everything in the activity log.
 */
export class RadioHost {
  private monitor: TrackMonitor | undefined;
  private settings: RadioSettings;
  private songsEnded = 0;
  private scheduled: ScheduledBreak | undefined;
  /** The songs whose break has begun, so the track change after one does not start it again. */
  private readonly handled = new Set<string>();
  private upcoming: Track[] = [];
  private snapshot: { value: StationSnapshot; at: number } | undefined;
  private lastError: { source: 'station' | 'broadcast' | 'settings'; message: string } | null = null;
  private onAir = false;
  /** Ends a break on air when the host stops (disabled, another station, shutdown). */
  private breaks = new AbortController();
  private readonly work = new Set<Promise<unknown>>();

  constructor(private readonly deps: RadioHostDependencies) {
    this.settings = deps.settings();
  }

  /** (Re)starts from the configuration: nothing polls and nothing speaks while disabled. */
  restart(): void {
    this.stop();
    this.settings = this.deps.settings();
    const { enabled, baseUrl, stationId } = this.settings;
    if (!enabled) return;
    if (baseUrl.trim() === '' || stationId.trim() === '') {
      this.lastError = { source: 'settings', message: 'Set STATION_BASE_URL and STATION_ID to follow a station.' };
      return;
    }
    this.monitor = new TrackMonitor({
      clock: this.deps.clock,
      fetchSnapshot: () => this.deps.fetchSnapshot(this.settings),
      pollIntervalMs: () => this.deps.settings().pollIntervalS * 1000,
      events: {
        snapshot: (value, at) => this.observed(value, at),
        trackChanged: (previous, current) => this.trackChanged(previous, current),
        glitch: (playing, shown) =>
          this.track(this.record('glitch', `Ignored a metadata glitch: ${describe(shown)} showed for a moment during ${describe(playing)}`)),
        windingDown: (track, endsAt) => this.windingDown(track, endsAt),
        endMoved: (track, endsAt) => this.endMoved(track, endsAt),
        pollFailed: (error) => this.stationFailed(error),
      },
    });
    this.monitor.start();
  }

  /** A setting changed: the station or the switch restarts the monitor; the rest applies from the next use. */
  reconfigure(key: string): void {
    if (RESTART_KEYS.has(key)) {
      this.restart();
      return;
    }
    this.settings = this.deps.settings();
    // Banter prepared in another language or voice is made again.
    if (key === 'RADIO_HOST_LANGUAGE' || key === 'RADIO_HOST_VOX_ENGINE') this.deps.planner.clear();
    if (key === 'RADIO_HOST_GAIN_DB') this.deps.encodings.regain();
  }

  stop(): void {
    this.breaks.abort(new Error('the radio host stopped'));
    this.breaks = new AbortController();
    this.monitor?.stop();
    this.monitor = undefined;
    if (this.scheduled) this.deps.clock.clearTimeout(this.scheduled.timer);
    this.scheduled = undefined;
    this.deps.planner.clear();
    this.deps.encodings.clear();
    this.handled.clear();
    this.songsEnded = 0;
    this.upcoming = [];
    this.snapshot = undefined;
    this.lastError = null;
  }

  /** Resolves once every poll, preparation and break started so far has finished (tests wait on it). */
  async settled(): Promise<void> {
    for (;;) {
      await this.monitor?.settled();
      await this.deps.planner.settled();
      await this.deps.encodings.settled();
      if (this.work.size === 0) return;
      await Promise.allSettled([...this.work]);
    }
  }

  get state(): RadioState {
    if (!this.settings.enabled) return 'disabled';
    if (!this.monitor) return 'unconfigured';
    return this.onAir ? 'on_air' : 'monitoring';
  }

  status() {
    return {
      enabled: this.settings.enabled,
      state: this.state,
      connected_station: this.snapshot && this.lastError?.source !== 'station' ? this.snapshot.value.stationName : null,
      last_error: this.lastError?.message ?? null,
    };
  }

  station() {
    const snapshot = this.snapshot?.value;
    const playing = this.monitor?.playing();
    const now = this.deps.clock.now();
    const current =
      playing && snapshot?.current
        ? {
            title: playing.track.title,
            artist: playing.track.artist,
            duration_s: playing.track.durationS,
            elapsed_s:
              playing.endsAt === null
                ? playing.track.elapsedS
                : Math.round(Math.min(playing.track.durationS, Math.max(0, playing.track.durationS - (playing.endsAt - now) / 1000))),
          }
        : null;
    const next = this.upcoming[0] ?? snapshot?.next ?? null;
    return {
      name: snapshot?.stationName ?? null,
      now_playing: current,
      next: next ? { title: next.title, artist: next.artist, duration_s: next.durationS } : null,
    };
  }

  private track<T>(work: Promise<T>): void {
    this.work.add(work);
    void work.catch((error: unknown) => this.deps.logger.error({ err: error }, 'radio host work failed')).finally(() => this.work.delete(work));
  }

  private record(kind: RadioActivityKind, text: string, data: Record<string, unknown> = {}): Promise<number> {
    return this.deps.activity.record(`${ACTIVITY_PREFIX}${kind}`, text, data);
  }

  private observed(value: StationSnapshot, at: number): void {
    this.snapshot = { value, at };
    if (this.lastError?.source === 'station') this.lastError = null;
  }

  private stationFailed(error: unknown): void {
    const text = message(error);
    this.deps.logger.warn({ err: error }, 'polling the station failed');
    // Recorded once per distinct failure, not every poll interval while the station stays down.
    if (this.lastError?.message === text) return;
    this.lastError = { source: 'station', message: text };
    this.track(this.record('error', `Polling the station failed: ${text}`));
  }

  /** Whether the end of the song playing now is a break (RADIO_HOST_INTERMISSION songs apart). */
  private breakDue(): boolean {
    return (this.songsEnded + 1) % Math.max(1, this.settings.intermission) === 0;
  }

  private trackChanged(previous: PlayingTrack | null, current: PlayingTrack): void {
    this.track(this.record('track', `Now playing ${describe(current)}`, { title: current.title, artist: current.artist, duration_s: current.durationS }));
    if (previous) {
      const due = this.breakDue();
      this.songsEnded += 1;
      // The song ended before its scheduled break (cut short), or the wind-down point was missed (a jingle,
      // a short track, a crossfade): the break goes out now.
      if (this.scheduled?.trackId === previous.id) this.breakNow();
      else if (due && !this.handled.has(previous.id)) this.startBreak(previous.id, this.transitionFor(previous));
    }
    // Only the song that just ended is remembered: the same song played again later gets its break again.
    for (const id of this.handled) if (id !== previous?.id) this.handled.delete(id);
    this.track(this.prepareAhead(current));
  }

  /** Banter for the breaks to come, made while the song plays: the end of this one, and with announcements the queue's. */
  private async prepareAhead(current: PlayingTrack): Promise<void> {
    if (this.settings.announceNext) {
      this.upcoming = await this.deps.fetchQueue(this.settings).catch((error: unknown) => {
        this.deps.logger.warn({ err: error }, 'reading the station queue failed; announcing the next song from now playing');
        return [] as Track[];
      });
    }
    const next = this.upcoming[0] ?? this.snapshot?.value.next ?? null;
    const transitions: Transition[] = [];
    if (this.breakDue()) transitions.push({ ended: current, next: this.settings.announceNext ? next : null });
    // The queue's next transition (next to next+1), ready in case this song's end comes early.
    const [first, second] = this.upcoming;
    if (this.settings.announceNext && first && second && (this.songsEnded + 2) % Math.max(1, this.settings.intermission) === 0) {
      transitions.push({ ended: first, next: second });
    }
    this.deps.planner.keepOnly(transitions);
    for (const transition of transitions) this.deps.planner.prepare(transition);
  }

  private transitionFor(track: PlayingTrack): Transition {
    const next = this.settings.announceNext ? (this.upcoming[0] ?? this.snapshot?.value.next ?? null) : null;
    return { ended: track, next };
  }

  private windingDown(track: PlayingTrack, endsAt: number): void {
    if (!this.breakDue() || this.handled.has(track.id)) return;
    const transition = this.transitionFor(track);
    this.deps.planner.prepare(transition);
    this.schedule(track.id, transition, endsAt);
  }

  private endMoved(track: PlayingTrack, endsAt: number): void {
    if (this.scheduled?.trackId === track.id) this.schedule(track.id, this.scheduled.transition, endsAt);
  }

  /** The break begins at the song's latest end, never before; it is primed a little ahead of that. */
  private schedule(trackId: string, transition: Transition, endsAt: number): void {
    const { clock } = this.deps;
    const primed = this.scheduled?.trackId === trackId ? this.scheduled.goLive : undefined;
    if (this.scheduled) clock.clearTimeout(this.scheduled.timer);
    const scheduled: ScheduledBreak = { trackId, transition, endsAt, timer: undefined, ...(primed ? { goLive: primed } : {}) };
    scheduled.timer = primed
      ? clock.setTimeout(() => this.goLive(), Math.max(0, endsAt - clock.now()))
      : clock.setTimeout(() => this.prime(scheduled), Math.max(0, endsAt - PRIME_LEAD_MS - clock.now()));
    this.scheduled = scheduled;
  }

  private prime(scheduled: ScheduledBreak): void {
    const live = new Promise<void>((resolve) => {
      scheduled.goLive = resolve;
    });
    scheduled.timer = this.deps.clock.setTimeout(() => this.goLive(), Math.max(0, scheduled.endsAt - this.deps.clock.now()));
    this.startBreak(scheduled.trackId, scheduled.transition, live);
  }

  /** The scheduled break goes on air now (primed, or started at once if it was not yet). */
  private breakNow(): void {
    const scheduled = this.scheduled;
    if (!scheduled) return;
    if (!scheduled.goLive) {
      this.deps.clock.clearTimeout(scheduled.timer);
      this.scheduled = undefined;
      this.startBreak(scheduled.trackId, scheduled.transition);
      return;
    }
    this.goLive();
  }

  private goLive(): void {
    const scheduled = this.scheduled;
    this.scheduled = undefined;
    if (!scheduled) return;
    this.deps.clock.clearTimeout(scheduled.timer);
    scheduled.goLive?.();
  }

  private startBreak(trackId: string, transition: Transition, live?: Promise<void>): void {
    if (this.handled.has(trackId)) return;
    this.handled.add(trackId);
    this.track(this.runBreak(transition, live));
  }

  private async runBreak(transition: Transition, live?: Promise<void>): Promise<void> {
    const banter = await this.deps.planner.take(transition);
    if (!banter) {
      await this.record('skipped', `No banter after ${describe(transition.ended)}: the speech could not be made in time`);
      return;
    }
    if (!this.monitor) return;
    this.onAir = true;
    try {
      await this.broadcast(banter, live);
    } finally {
      this.onAir = false;
    }
  }

  private async broadcast(banter: PreparedBanter, live: Promise<void> | undefined): Promise<void> {
    const { gainDb, webdjUrl, username, password } = this.settings;
    const { signal } = this.breaks;
    try {
      const sent = await this.deps.inject({
        wavPath: banter.path,
        gainDb,
        // Encoded while the song played; without it (the encoding failed) the break encodes now.
        audio: await this.deps.encodings.take(banter.path, gainDb),
        webdjUrl,
        username,
        password,
        metadata: { title: banter.text.slice(0, 120), artist: username },
        signal,
        ...(live ? { goLive: live } : {}),
      });
      if (this.lastError?.source === 'broadcast') this.lastError = null;
      await this.record('injected', `On air (${banter.variant}, ${sent.durationS.toFixed(1)} s): ${banter.text}`, {
        audio_id: banter.audioId,
        sent_bytes: sent.sentBytes,
      });
    } catch (error) {
      if (signal.aborted) return;
      const text = broadcastFailure(error, username);
      this.deps.logger.error({ err: error }, text);
      this.lastError = { source: 'broadcast', message: text };
      await this.record('error', text, { audio_id: banter.audioId, kind: kindOf(error) });
    }
  }
}

const kindOf = (error: unknown): string | undefined => {
  const kind = (error as { kind?: unknown } | undefined)?.kind;
  return typeof kind === 'string' ? kind : undefined;
};

/** A broadcast failure as the page shows it: what went wrong and what to check. */
function broadcastFailure(error: unknown, username: string): string {
  switch (kindOf(error)) {
    case 'auth':
      return `The station refused the streamer login "${username}": check STATION_STREAMER_USERNAME and STATION_STREAMER_PASSWORD, and that the account may use the web broadcaster (${message(error)})`;
    case 'busy':
      return `Another broadcaster is live on the station, so the banter could not go on air (${message(error)})`;
    case 'connect':
      return `The web broadcaster could not be reached: check STATION_WEBDJ_URL (${message(error)})`;
    default:
      return `The banter could not be broadcast: ${message(error)}`;
  }
}
