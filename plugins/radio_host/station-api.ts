import { z } from 'zod';

/**
 * The two AzuraCast API calls the radio host makes: now playing (public) and the upcoming queue (needs an
 * API key with the Broadcasting permission). Only the fields used are checked; AzuraCast sends many more.
 */
const SongSchema = z.object({
  id: z.string(),
  text: z.string().default(''),
  artist: z.string().default(''),
  title: z.string().default(''),
});

const PlayingSchema = z.object({
  song: SongSchema,
  played_at: z.number().default(0),
  duration: z.number().nonnegative().default(0),
  elapsed: z.number().default(0),
  remaining: z.number().default(0),
  playlist: z.string().nullish(),
});

const NextSchema = z.object({ song: SongSchema, duration: z.number().nonnegative().default(0) });

const NowPlayingSchema = z.object({
  station: z.object({ name: z.string(), shortcode: z.string().optional() }),
  live: z.object({ is_live: z.boolean(), streamer_name: z.string().default('') }).optional(),
  now_playing: PlayingSchema.nullish(),
  playing_next: NextSchema.nullish(),
  is_online: z.boolean().optional(),
});

const QueueSchema = z.array(NextSchema);

export interface Track {
  /** AzuraCast's song id (a hash of artist and title): the same song keeps it. */
  id: string;
  title: string;
  artist: string;
  durationS: number;
}

export interface PlayingTrack extends Track {
  /** AzuraCast's whole second the song began in (0: not given). */
  playedAt: number;
  elapsedS: number;
  remainingS: number;
}

export interface StationSnapshot {
  stationName: string;
  current: PlayingTrack | null;
  next: Track | null;
  /** Another broadcaster (a streamer, or us) is live. */
  liveStreamer: string | null;
}

export class StationError extends Error {}

function trackOf(entry: z.infer<typeof NextSchema>): Track {
  const { song } = entry;
  // A file without tags has only `text` ("Artist - Title" or the file name).
  const title = song.title || song.text || 'an untitled track';
  return { id: song.id, title, artist: song.artist, durationS: entry.duration };
}

async function getJson(url: string, headers: Record<string, string>, signal: AbortSignal | undefined): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json', ...headers }, ...(signal ? { signal } : {}) });
  } catch (error) {
    throw new StationError(`the station at ${new URL(url).origin} cannot be reached: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (response.status === 401 || response.status === 403) throw new StationError(`the station refused STATION_API_KEY (HTTP ${response.status})`);
  if (response.status === 404) throw new StationError(`the station has no ${new URL(url).pathname} (is STATION_ID right?)`);
  if (!response.ok) throw new StationError(`the station answered HTTP ${response.status} for ${new URL(url).pathname}`);
  return response.json().catch(() => {
    throw new StationError(`the station answered ${new URL(url).pathname} with something that is not JSON`);
  });
}

function parse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new StationError(`the station's ${what} is not what AzuraCast sends: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

const endpoint = (baseUrl: string, path: string) => `${baseUrl.replace(/\/+$/, '')}${path}`;

/** `GET {base}/api/nowplaying/{station}`. */
export async function fetchNowPlaying(baseUrl: string, stationId: string, signal?: AbortSignal): Promise<StationSnapshot> {
  const body = parse(NowPlayingSchema, await getJson(endpoint(baseUrl, `/api/nowplaying/${encodeURIComponent(stationId)}`), {}, signal), 'now playing');
  const playing = body.now_playing;
  return {
    stationName: body.station.name,
    current: playing ? { ...trackOf(playing), playedAt: playing.played_at, elapsedS: playing.elapsed, remainingS: playing.remaining } : null,
    next: body.playing_next ? trackOf(body.playing_next) : null,
    liveStreamer: body.live?.is_live ? body.live.streamer_name || 'a streamer' : null,
  };
}

/** `GET {base}/api/station/{station}/queue` with `X-API-Key`: the upcoming tracks, next first. */
export async function fetchQueue(baseUrl: string, stationId: string, apiKey: string, signal?: AbortSignal): Promise<Track[]> {
  const headers: Record<string, string> = apiKey ? { 'x-api-key': apiKey } : {};
  return parse(QueueSchema, await getJson(endpoint(baseUrl, `/api/station/${encodeURIComponent(stationId)}/queue`), headers, signal), 'queue').map(trackOf);
}
