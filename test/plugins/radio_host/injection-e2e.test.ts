import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AzuraCastServer } from '../../helpers/azuracast-server.ts';
import { type LiquidsoapHarbor, measureAudio, startHarbor } from '../../helpers/liquidsoap-harbor.ts';
import { useTestApp } from '../../helpers/services.ts';

const pluginRoots = { plugins: fileURLToPath(new URL('../../../plugins', import.meta.url)) };
/** Long enough for the banter to be spoken on a loaded machine before the song ends. */
const SONG_S = 25;
/** The song before it: its end, and so the start of the song with the break, is watched by the fast polls. */
const BEFORE_S = 6;

/** The whole way: the fake AzuraCast's song ends, the radio host speaks, the real harbor plays it. */
describe('a radio break from the song end to a real Liquidsoap harbor', { timeout: 120_000 }, () => {
  let harbor: LiquidsoapHarbor;
  const station = new AzuraCastServer({
    clock: { now: () => Date.now() },
    songs: [
      { title: 'Waiting', artist: 'The Band', durationS: 600 },
      { title: 'Before', artist: 'The Band', durationS: BEFORE_S },
      { title: 'First Light', artist: 'The Band', durationS: SONG_S },
      { title: 'Long After', artist: 'The Band', durationS: 600 },
    ],
  });
  beforeAll(async () => {
    [harbor] = await Promise.all([startHarbor(), station.start()]);
  });
  afterAll(async () => {
    await station.close();
    await harbor?.stop();
  });
  const subject = useTestApp({ startInTest: true, componentRoots: pluginRoots });
  afterEach(() => subject.stop());

  // The harbor begins playing (AzuraCast skips the song on air then) never before the song's end and
  // within 1 s of it: the host primes the break ahead and goes live at the latest end the station's whole
  // seconds allow, refined by the fast polls that saw the song begin (docs/decisions.md, "RADIO").
  it('begins playing the banter at the song boundary (never before, within 1 s), from the schedule, whole', async () => {
    // The host is switched on once the app is up, as "Before" begins; the break is due after the 2nd song.
    await subject.start({
      environment: {
        RADIO_HOST_ENABLED: 'false',
        RADIO_HOST_INTERMISSION: '2',
        STATION_BASE_URL: station.url,
        STATION_ID: station.shortcode,
        RADIO_HOST_POLL_INTERVAL_S: '1',
        STATION_WEBDJ_URL: harbor.url,
        STATION_STREAMER_USERNAME: harbor.username,
        STATION_STREAMER_PASSWORD: harbor.password,
      },
    });
    station.skip();
    const songEndsAt = station.playAt(Date.now()).endsAt + SONG_S * 1000;
    const enabled = await subject.app.inject({ method: 'POST', url: '/api/config', payload: { key: 'RADIO_HOST_ENABLED', value: 'true' } });
    expect(enabled.statusCode).toBe(200);
    const recording = await harbor.nextRecording(songEndsAt - Date.now() + 30_000);
    expect(recording.startedAtMs).toBeGreaterThanOrEqual(songEndsAt);
    expect(recording.startedAtMs).toBeLessThan(songEndsAt + 1000);
    const measured = await measureAudio(recording.path);
    // At least the buffer's worth (a short line is padded), and something said.
    expect(measured.durationS).toBeGreaterThanOrEqual(5.3);
    expect(measured.soundS).toBeGreaterThan(0.5);
    expect(harbor.metadata.at(-1)?.artist).toBe(harbor.username);
  });
});
