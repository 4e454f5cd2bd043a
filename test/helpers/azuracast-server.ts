/**
 * A local AzuraCast API server for the radio host's tests: `GET /api/nowplaying/{station}` and
 * `GET /api/station/{station}/queue` (X-API-Key) with the JSON AzuraCast 0.20 returns, over a playlist of
 * short songs that play back to back on a clock the test sets (the same ManualClock the host runs on).
 * Times are AzuraCast's whole seconds: `played_at` the second a song began plus its 5 s playback delay,
 * `elapsed` from that second, `duration` truncated; a song's true end is `playAt(t).endsAt`.
 * It can show a crossfade glitch (the next song's metadata for a moment), cut a song short (a skip, a
 * crossfade), and records every request so a test can say nothing polled.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StationSong {
  title: string;
  artist: string;
  durationS: number;
  /** A jingle's playlist (AzuraCast shows it in `playlist`). */
  playlist?: string;
}

export interface AzuraCastOptions {
  /** The station's short name (STATION_ID). */
  shortcode?: string;
  name?: string;
  apiKey?: string;
  songs: StationSong[];
  /** The test's clock; the first song starts at `startedAt` (default: now). */
  clock: { now(): number };
  startedAt?: number;
}

export interface RecordedRequest {
  path: string;
  apiKey: string | undefined;
  at: number;
}

interface Play {
  song: StationSong;
  index: number;
  startedAt: number;
  endsAt: number;
}

/** AzuraCast's song id: an MD5 of the song's text, so the same song always has the same id. */
const songId = (song: StationSong) => createHash('md5').update(`${song.artist} - ${song.title}`).digest('hex');

const songJson = (song: StationSong) => ({
  id: songId(song),
  art: `http://station.test/static/uploads/album_art.1.jpg`,
  custom_fields: [],
  text: song.artist ? `${song.artist} - ${song.title}` : song.title,
  artist: song.artist,
  title: song.title,
  album: '',
  genre: '',
  isrc: '',
  lyrics: '',
});

const seconds = (ms: number) => Math.floor(ms / 1000);
/**
 * AzuraCast's `PLAYBACK_DELAY_SECONDS`: `played_at` is the whole second the song was registered in plus 5,
 * while `elapsed` counts from the registered second itself (`time() + 5 - played_at`).
 */
const PLAYBACK_DELAY_S = 5;

export class AzuraCastServer {
  readonly requests: RecordedRequest[] = [];
  readonly shortcode: string;
  private readonly server = createServer((request, response) => this.handle(request, response));
  private readonly options: Required<Omit<AzuraCastOptions, 'startedAt'>> & { startedAt: number };
  /** Song boundaries moved by `skip`: the index plays from this time. */
  private readonly schedule: Array<{ index: number; startedAt: number }> = [];
  private glitchUntil = -1;
  /** The broadcaster live now, the title its metadata gave and when it went live. */
  private live: { streamer: string; title: string; since: number } | null = null;

  constructor(options: AzuraCastOptions) {
    this.shortcode = options.shortcode ?? 'anima_fm';
    this.options = {
      shortcode: this.shortcode,
      name: options.name ?? 'Anima FM',
      apiKey: options.apiKey ?? 'station-key',
      songs: options.songs,
      clock: options.clock,
      startedAt: options.startedAt ?? options.clock.now(),
    };
    this.schedule.push({ index: 0, startedAt: this.options.startedAt });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this.url;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The song playing at a time (the test's clock), with its start and end. */
  playAt(time: number): Play {
    const { songs } = this.options;
    let { index, startedAt } = this.schedule.filter((entry) => entry.startedAt <= time).at(-1) ?? { index: 0, startedAt: this.options.startedAt };
    for (;;) {
      const song = songs[index % songs.length] as StationSong;
      const endsAt = startedAt + song.durationS * 1000;
      const cut = this.schedule.find((entry) => entry.startedAt > startedAt && entry.startedAt < endsAt);
      const end = cut ? cut.startedAt : endsAt;
      if (time < end) return { song, index, startedAt, endsAt: end };
      if (cut) ({ index, startedAt } = cut);
      else {
        index += 1;
        startedAt = end;
      }
    }
  }

  /** The playing song ends now and the next one begins (a skip, or a crossfade that cut it short). */
  skip(): void {
    const now = this.options.clock.now();
    this.schedule.push({ index: this.playAt(now).index + 1, startedAt: now });
  }

  /** For `ms` from now the metadata shows the next song, then goes back (a crossfade glitch). */
  glitch(ms: number): void {
    this.glitchUntil = this.options.clock.now() + ms;
  }

  /**
   * Another broadcaster is live (null: the AutoDJ plays). While it is, now-playing shows the broadcast's own
   * metadata as AzuraCast does: a song of that title with duration 0, played since the broadcast began.
   */
  setLive(streamer: string | null, title = 'Live broadcast'): void {
    this.live = streamer === null ? null : { streamer, title, since: this.options.clock.now() };
  }

  /** Now-playing requests so far. */
  polls(): RecordedRequest[] {
    return this.requests.filter((request) => request.path.startsWith('/api/nowplaying/'));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const path = new URL(request.url ?? '/', 'http://station.test').pathname;
    const apiKey = request.headers['x-api-key'];
    this.requests.push({ path, apiKey: typeof apiKey === 'string' ? apiKey : undefined, at: this.options.clock.now() });
    const [status, body] = this.answer(request.method, path, apiKey);
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify(body));
  }

  /** AzuraCast's answer; its errors are `{code, type, message, formatted_message, extra_data, success}`. */
  private answer(method: string | undefined, path: string, apiKey: string | string[] | undefined): [number, unknown] {
    const error = (code: number, type: string, message: string) =>
      [code, { code, type, message, formatted_message: message, extra_data: [], success: false }] as [number, unknown];
    if (method !== 'GET') return error(405, 'MethodNotAllowedException', 'Method not allowed.');
    if (path === `/api/nowplaying/${this.shortcode}`) return [200, this.nowPlaying()];
    if (path !== `/api/station/${this.shortcode}/queue`) return error(404, 'NotFoundException', 'Station not found.');
    if (apiKey !== this.options.apiKey) return error(403, 'PermissionDeniedException', 'You do not have permission to access this portion of the site.');
    return [200, this.queue()];
  }

  private songAt(index: number): StationSong {
    return this.options.songs[index % this.options.songs.length] as StationSong;
  }

  private nowPlaying() {
    const now = this.options.clock.now();
    const play = this.playAt(now);
    const glitching = now < this.glitchUntil;
    // During a glitch AzuraCast shows the next song's metadata with the playing song's timing.
    const shown = glitching ? this.songAt(play.index + 1) : play.song;
    // AzuraCast sends whole seconds: the duration truncated, elapsed clamped to [0, duration].
    const duration = Math.floor(play.song.durationS);
    const elapsed = Math.min(duration, Math.max(0, seconds(now) - seconds(play.startedAt)));
    const history = [1, 2, 3]
      .filter((back) => play.index - back >= 0)
      .map((back, position) => ({
        sh_id: 1000 + play.index - back,
        played_at: seconds(play.startedAt) + PLAYBACK_DELAY_S - position * 180,
        duration: Math.floor(this.songAt(play.index - back).durationS),
        playlist: this.songAt(play.index - back).playlist ?? 'default',
        streamer: '',
        is_request: false,
        song: songJson(this.songAt(play.index - back)),
      }));
    return {
      station: {
        id: 1,
        name: this.options.name,
        shortcode: this.shortcode,
        description: 'A test station',
        frontend: 'icecast',
        backend: 'liquidsoap',
        timezone: 'UTC',
        listen_url: `http://station.test/listen/${this.shortcode}/radio.mp3`,
        url: '',
        public_player_url: `http://station.test/public/${this.shortcode}`,
        playlist_pls_url: `http://station.test/public/${this.shortcode}/playlist.pls`,
        playlist_m3u_url: `http://station.test/public/${this.shortcode}/playlist.m3u`,
        is_public: true,
        mounts: [
          {
            id: 1,
            name: '/radio.mp3 (128kbps MP3)',
            url: `http://station.test/listen/${this.shortcode}/radio.mp3`,
            bitrate: 128,
            format: 'mp3',
            listeners: { total: 3, unique: 3, current: 3 },
            path: '/radio.mp3',
            is_default: true,
          },
        ],
        remotes: [],
        hls_enabled: false,
        hls_is_default: false,
        hls_url: null,
        hls_listeners: 0,
      },
      listeners: { total: 3, unique: 3, current: 3 },
      live: { is_live: this.live !== null, streamer_name: this.live?.streamer ?? '', broadcast_start: this.live ? seconds(this.live.since) : null, art: null },
      now_playing: this.live
        ? {
            sh_id: 0,
            played_at: seconds(this.live.since),
            duration: 0,
            playlist: '',
            streamer: this.live.streamer,
            is_request: false,
            song: songJson({ title: this.live.title, artist: this.live.streamer, durationS: 0 }),
            elapsed: seconds(now - this.live.since),
            remaining: 0,
          }
        : {
            sh_id: 1000 + play.index,
            played_at: seconds(play.startedAt) + PLAYBACK_DELAY_S,
            duration,
            playlist: shown.playlist ?? 'default',
            streamer: '',
            is_request: false,
            song: songJson(shown),
            elapsed,
            remaining: duration - elapsed,
          },
      playing_next: {
        cued_at: seconds(play.endsAt) - 10,
        played_at: seconds(play.endsAt),
        duration: Math.floor(this.songAt(play.index + 1).durationS),
        playlist: this.songAt(play.index + 1).playlist ?? 'default',
        is_request: false,
        song: songJson(this.songAt(play.index + 1)),
      },
      song_history: history,
      is_online: true,
      cache: null,
    };
  }

  private queue() {
    const play = this.playAt(this.options.clock.now());
    let at = play.endsAt;
    return [1, 2, 3].map((ahead) => {
      const song = this.songAt(play.index + ahead);
      const entry = {
        id: 500 + play.index + ahead,
        cued_at: seconds(at) - 10,
        played_at: seconds(at),
        duration: Math.floor(song.durationS),
        playlist: song.playlist ?? 'default',
        is_request: false,
        song: songJson(song),
        sent_to_autodj: ahead === 1,
        is_played: false,
        autodj_custom_uri: null,
        log: null,
        links: { self: `http://station.test/api/station/1/queue/${500 + play.index + ahead}` },
      };
      at += song.durationS * 1000;
      return entry;
    });
  }
}
