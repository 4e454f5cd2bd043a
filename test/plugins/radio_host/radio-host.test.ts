import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RadioAudioFolder } from '../../../plugins/radio_host/audio-folder.ts';
import { BanterEncodings } from '../../../plugins/radio_host/banter-encodings.ts';
import { BanterPlanner } from '../../../plugins/radio_host/banter-planner.ts';
import { type BanterAudio, type BanterInjection, prepareBanterAudio } from '../../../plugins/radio_host/injection/index.ts';
import { RadioHost, type RadioSettings } from '../../../plugins/radio_host/radio-host.ts';
import { fetchNowPlaying, fetchQueue } from '../../../plugins/radio_host/station-api.ts';
import { webdjUrl } from '../../../plugins/radio_host/webdj-url.ts';
import { activityPort } from '../../../src/chain/activity-port.ts';
import type { ActivityPort, ChatTurn } from '../../../src/components/contract.ts';
import { createLogger } from '../../../src/logging.ts';
import { AzuraCastServer, type StationSong } from '../../helpers/azuracast-server.ts';
import { ManualClock } from '../../helpers/manual-clock.ts';
import { createTestServices, type TestServices } from '../../helpers/services.ts';

const START = Date.UTC(2025, 0, 1, 12, 0, 0);
const song = (title: string, durationS: number, artist = 'The Testers'): StationSong => ({ title, artist, durationS });

interface Injected {
  at: number;
  request: BanterInjection;
}

/**
 * The radio host over a local AzuraCast API on the manual clock, with real speech (the bundled Vox engine)
 * and the real activity log; the broadcast is recorded with the clock's time it began (the injection half
 * and its harbor have tests of their own).
 */
describe('the radio host on the manual clock', { timeout: 60_000 }, () => {
  let clock: ManualClock;
  let station: AzuraCastServer | undefined;
  let harness: TestServices;
  let host: RadioHost | undefined;
  let activity: ActivityPort;
  let injected: Injected[];
  let inject: (request: BanterInjection) => Promise<{ sentBytes: number; durationS: number }>;
  /** Every encoding for the air (real ffmpeg), with the clock's time it was asked for. */
  let current: RadioSettings;
  let encoded: { at: number; wavPath: string; gainDb: number; audio: Promise<BanterAudio> }[];

  beforeEach(async () => {
    clock = new ManualClock(START);
    harness = await createTestServices();
    activity = activityPort(harness.services.activity);
    injected = [];
    encoded = [];
    // A primed break is recorded when it goes live (the clock sets that; the host does not wait for it).
    inject = async (request) => {
      const record = () => injected.push({ at: clock.now(), request });
      if (request.goLive) void request.goLive.then(record);
      else record();
      return { sentBytes: 1000, durationS: 2 };
    };
  });
  afterEach(async () => {
    host?.stop();
    host = undefined;
    await station?.close();
    station = undefined;
    await harness.close();
  });

  const startHost = async (
    songs: StationSong[],
    settings: Partial<RadioSettings> = {},
    complete?: (messages: ChatTurn[], signal: AbortSignal) => Promise<string>,
    startedAt = START,
  ) => {
    station = new AzuraCastServer({ clock, songs, startedAt });
    const baseUrl = await station.start();
    current = {
      enabled: true,
      baseUrl,
      stationId: station.shortcode,
      pollIntervalS: 1,
      intermission: 1,
      announceNext: false,
      gainDb: 4,
      webdjUrl: webdjUrl('', baseUrl, station.shortcode),
      username: 'dj',
      password: 'secret',
      ...settings,
    };
    const logger = createLogger({ level: 'silent', pretty: false }).logger;
    const encodings = new BanterEncodings({
      encode: (request) => {
        const audio = prepareBanterAudio(request);
        encoded.push({ at: clock.now(), ...request, audio });
        return audio;
      },
      gainDb: () => current.gainDb,
      logger,
    });
    const planner = new BanterPlanner({
      language: () => 'English',
      stationName: () => 'Anima FM',
      listeners: async () => [],
      canSpeak: () => true,
      synthesize: (text) => harness.services.voice.synthesize(text),
      complete,
      record: (kind, message, data) => activity.record(`radio.${kind}`, message, data),
      spoken: (path) => encodings.prepare(path),
      audio: new RadioAudioFolder(() => join(harness.cwd, 'radio')),
      now: () => clock.now(),
      random: () => 0,
      logger,
    });
    const started = new RadioHost({
      clock,
      settings: () => current,
      fetchSnapshot: (value) => fetchNowPlaying(value.baseUrl, value.stationId),
      fetchQueue: (value) => fetchQueue(value.baseUrl, value.stationId, 'station-key'),
      inject: (request) => inject(request),
      planner,
      encodings,
      activity,
      logger,
    });
    host = started;
    started.restart();
    await started.settled();
    return started;
  };

  /** Moves the clock in small steps, letting every poll, re-check and preparation finish on the way. */
  const run = async (ms: number, step = 250) => {
    for (let passed = 0; passed < ms; passed += step) {
      clock.advance(step);
      await host?.settled();
    }
  };
  /** The banter_ready entry of the audio a break sent. */
  const banterOf = async (entry: Injected | undefined) =>
    (await activity.recent('radio.banter_ready', 50)).find((ready) => (ready.data as { path?: string }).path === entry?.request.wavPath);
  /** The encoding for the air a break sent (the same object, not one made again). */
  const encodingOf = async (entry: Injected | undefined) => {
    for (const encoding of encoded) if (encoding.wavPath === entry?.request.wavPath && (await encoding.audio) === entry?.request.audio) return encoding;
    return undefined;
  };
  const kinds = async () => (await activity.recent('radio.', 50)).map((entry) => entry.kind.slice('radio.'.length)).reverse();

  it('begins the break exactly at the end of the song, with the banter spoken ahead', async () => {
    await startHost([song('Morning Light', 10), song('Second Song', 10), song('Third Song', 10)]);
    await run(9_750);
    expect(injected).toEqual([]);
    await run(750);
    expect(injected).toHaveLength(1);
    const [first] = injected as [Injected];
    expect(first.at).toBe(START + 10_000);
    expect(first.request).toMatchObject({
      gainDb: 4,
      username: 'dj',
      password: 'secret',
      webdjUrl: `ws://127.0.0.1:${new URL(station?.url ?? '').port}/webdj/anima_fm/`,
    });
    expect(first.request.wavPath.startsWith(join(harness.cwd, 'radio'))).toBe(true);
    expect(existsSync(first.request.wavPath)).toBe(true);
    expect((await banterOf(first))?.message).toContain('That was Morning Light by The Testers.');
    // Encoded when it was spoken, while the song played: the break only sent it.
    const sent = await encodingOf(first);
    expect(sent).toMatchObject({ gainDb: 4 });
    expect(sent?.at).toBeLessThan(START + 10_000);
    expect(first.request.audio?.bytes.length).toBeGreaterThan(0);
    expect(await kinds()).toEqual(['track', 'banter_ready', 'injected']);
    // The next song is believed after the 3 s re-check, and its own banter is made while it plays.
    await run(3_000);
    expect(await kinds()).toEqual(['track', 'banter_ready', 'injected', 'track', 'banter_ready']);
    expect(injected).toHaveLength(1);
  });

  it('never begins a break before the song ends, though AzuraCast gives its times in whole seconds', async () => {
    // The first song began 2.6 s before the host looked: only its whole second is known, so the break waits
    // for the latest end that second allows. The second song's start is seen by the fast polls near the end.
    await startHost([song('Offbeat', 10), song('Seen Starting', 10), song('Third', 10)], {}, undefined, START - 2_600);
    await run(18_000);
    const ends = [START + 7_400, START + 17_400];
    expect(injected.map((entry) => entry.at - (ends.shift() ?? 0))).toEqual([600, 100]);
  });

  it('encodes the spoken banter again when RADIO_HOST_GAIN_DB changes before the break', async () => {
    await startHost([song('Loud', 10), song('Quiet', 10)]);
    await run(5_000);
    current.gainDb = -6;
    host?.reconfigure('RADIO_HOST_GAIN_DB');
    await run(5_500);
    expect(injected).toHaveLength(1);
    expect(injected[0]?.request.gainDb).toBe(-6);
    const sent = await encodingOf(injected[0]);
    expect(sent).toMatchObject({ gainDb: -6, at: START + 5_000 });
    expect(encoded.filter((encoding) => encoding.wavPath === sent?.wavPath).map((encoding) => encoding.gainDb)).toEqual([4, -6]);
  });

  it('drops a crossfade glitch after the 3 s re-check: no track change, no break', async () => {
    await startHost([song('Long Song', 120), song('Glimpse', 120)]);
    await run(20_000);
    station?.glitch(1_500);
    await run(10_000);
    expect(injected).toEqual([]);
    expect(await kinds()).toEqual(['track', 'banter_ready', 'glitch']);
    expect(host?.station().now_playing?.title).toBe('Long Song');
  });

  it('speaks at once on the track change when the wind-down point was missed (the song was cut short)', async () => {
    await startHost([song('Cut Short', 120), song('After', 120)], { pollIntervalS: 15 });
    await run(31_000);
    station?.skip();
    await run(20_000);
    // The poll at 45 s sees the change, the re-check 3 s later confirms it: the break goes out then.
    expect(injected.map((entry) => entry.at)).toEqual([START + 48_000]);
    expect((await banterOf(injected[0]))?.message).toContain('Cut Short');
  });

  it('speaks at once on the track change when a jingle shorter than the re-check ended before it could be believed', async () => {
    const jingle: StationSong = { title: 'Station ID', artist: 'Anima FM', durationS: 2, playlist: 'Jingles' };
    await startHost([song('Opener', 10), jingle, song('After', 60)], { intermission: 2 });
    await run(14_000);
    // The jingle is first shown at 10 s (fast polls around the end) and gone by the 3 s re-check: it played,
    // it counts as the second song, and its break goes out on the change to "After", at once.
    expect(injected.map((entry) => entry.at)).toEqual([START + 13_000]);
    expect((await banterOf(injected[0]))?.message).toContain('Station ID');
    expect(await kinds()).toEqual(['track', 'track', 'track', 'banter_ready', 'injected']);
  });

  it("sends the language model's line once it is spoken, and the template's while the model is still thinking", async () => {
    const asked: ChatTurn[][] = [];
    let abandoned = 0;
    await startHost([song('First', 10), song('Second', 10), song('Third', 10)], {}, (messages, signal) => {
      asked.push(messages);
      if (asked.length === 1) return Promise.resolve('[em_happy] What a *lovely* opener!');
      // The second song's model is still thinking at the break: the break does not wait, and stops it.
      return new Promise((_, reject) =>
        signal.addEventListener('abort', () => {
          abandoned += 1;
          reject(signal.reason);
        }),
      );
    });
    await run(10_500);
    expect(asked[0]?.[0]?.content).toMatch(/in English/);
    expect(asked[0]?.[1]?.content).toContain('The song that just ended: "First" by The Testers.');
    expect((await banterOf(injected[0]))?.message).toBe('Banter ready (model) after "First": What a lovely opener!');
    // The model's line, encoded when it replaced the template, is what went out.
    expect(await encodingOf(injected[0])).toBeDefined();
    await run(10_000);
    expect(injected.map((entry) => entry.at)).toEqual([START + 10_000, START + 20_000]);
    expect((await banterOf(injected[1]))?.message).toBe('Banter ready (template) after "Second": That was Second by The Testers.');
    expect(abandoned).toBe(1);
  });

  it('with RADIO_HOST_ENABLED false nothing polls and nothing speaks', async () => {
    await startHost([song('Quiet', 5), song('Still quiet', 5)], { enabled: false });
    await run(30_000, 1_000);
    expect(station?.polls()).toEqual([]);
    expect(injected).toEqual([]);
    expect(await kinds()).toEqual([]);
    expect(host?.status()).toEqual({ enabled: false, state: 'disabled', connected_station: null, last_error: null });
  });

  it('takes the broadcast it went live with for no song: the next break is at the end of the song after it, not at its start', async () => {
    await startHost([song('Before', 10), song('Hidden', 30), song('After', 30)]);
    await run(10_250);
    expect(injected.map((entry) => entry.at)).toEqual([START + 10_000]);
    // Live, AzuraCast's now-playing shows the broadcast's own metadata (duration 0), then the AutoDJ goes on.
    station?.setLive('dj', 'Anima FM');
    await run(4_000);
    station?.setLive(null);
    station?.skip();
    await run(35_000);
    expect(injected.map((entry) => entry.at)).toEqual([START + 10_000, START + 44_500]);
    const tracks = (await activity.recent('radio.track', 50)).map((entry) => (entry.data as { title?: string }).title).reverse();
    // The playlist comes round again at 44 s; the broadcast is never one of them.
    expect(tracks).toEqual(['Before', 'After', 'Before']);
  });

  it('counts songs for RADIO_HOST_INTERMISSION', async () => {
    await startHost([song('One', 5), song('Two', 5), song('Three', 5), song('Four', 5)], { intermission: 2 });
    await run(20_500, 500);
    // Breaks after the 2nd and 4th songs only (the first seen counts as the first).
    expect(injected.map((entry) => entry.at)).toEqual([START + 10_000, START + 20_000]);
  });

  it('announces the next song from the queue, read with the API key', async () => {
    await startHost([song('Now', 10), song('Soon', 10), song('Later', 10)], { announceNext: true });
    await run(10_500);
    expect(station?.requests.filter((request) => request.path.endsWith('/queue')).every((request) => request.apiKey === 'station-key')).toBe(true);
    expect(injected).toHaveLength(1);
    expect((await banterOf(injected[0]))?.message).toMatch(/Now by The Testers.*Soon by The Testers/);
  });

  it('records a refused streamer login in the activity and in status.last_error', async () => {
    inject = async () => {
      throw Object.assign(new Error('the harbor closed the socket with 1011'), { kind: 'auth' });
    };
    await startHost([song('Refused', 5), song('Next', 5)]);
    await run(5_500);
    expect(host?.status().last_error).toMatch(/refused the streamer login "dj"/);
    const error = (await activity.recent('radio.error', 5))[0];
    expect(error?.message).toMatch(/STATION_STREAMER_PASSWORD/);
  });
});
