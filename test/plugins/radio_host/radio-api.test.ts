import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AzuraCastServer } from '../../helpers/azuracast-server.ts';
import { type LiquidsoapHarbor, startHarbor } from '../../helpers/liquidsoap-harbor.ts';
import { ManualClock } from '../../helpers/manual-clock.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../../helpers/openai-server.ts';
import { useTestApp } from '../../helpers/services.ts';

/** Only the shipped plugins (radio_host among them): no chat platform, no engine. */
const pluginRoots = { plugins: fileURLToPath(new URL('../../../plugins', import.meta.url)) };
const withModel = { ...pluginRoots, cortex: fileURLToPath(new URL('../../../cortex', import.meta.url)) };

interface RadioData {
  status: { enabled: boolean; state: string; connected_station: string | null; last_error: string | null };
  station: {
    name: string | null;
    now_playing: { title: string; artist: string; elapsed_s: number; duration_s: number } | null;
    next: { title: string } | null;
  };
  activity: Array<{ id: number; time: string; kind: string; message: string; audio_id: number | null }>;
}

describe('GET /api/radio/data with the radio host switched off', { timeout: 60_000 }, () => {
  const clock = new ManualClock();
  const station = new AzuraCastServer({ clock, songs: [{ title: 'Quiet', artist: 'Nobody', durationS: 5 }] });
  beforeAll(() => station.start());
  afterAll(() => station.close());
  const subject = useTestApp({ startInTest: true, componentRoots: pluginRoots });

  it('polls nothing and says so until RADIO_HOST_ENABLED is saved, then follows the station without a restart', async () => {
    await subject.start({ clock, environment: { STATION_BASE_URL: station.url, STATION_ID: station.shortcode, RADIO_HOST_POLL_INTERVAL_S: '1' } });
    const data = async () => (await subject.app.inject({ method: 'GET', url: '/api/radio/data' })).json<RadioData>();
    clock.advance(120_000);
    expect(station.polls()).toEqual([]);
    expect(await data()).toEqual({
      status: { enabled: false, state: 'disabled', connected_station: null, last_error: null },
      station: { name: null, now_playing: null, next: null },
      activity: [],
    });

    const saved = await subject.app.inject({ method: 'POST', url: '/api/config', payload: { key: 'RADIO_HOST_ENABLED', value: 'true' } });
    expect(saved.statusCode).toBe(200);
    await vi.waitFor(async () => expect((await data()).station.now_playing?.title).toBe('Quiet'), { timeout: 30_000, interval: 100 });
    const shown = await data();
    expect(shown.status).toEqual({ enabled: true, state: 'monitoring', connected_station: 'Anima FM', last_error: null });
    expect(shown.station).toMatchObject({ name: 'Anima FM', now_playing: { title: 'Quiet', artist: 'Nobody', duration_s: 5 } });
    expect(shown.activity[0]).toMatchObject({ kind: 'track', message: 'Now playing "Quiet" by Nobody', audio_id: null });

    await subject.app.inject({ method: 'POST', url: '/api/config', payload: { key: 'RADIO_HOST_ENABLED', value: 'false' } });
    const polled = station.polls().length;
    clock.advance(120_000);
    expect(station.polls()).toHaveLength(polled);
    expect((await data()).status.state).toBe('disabled');
  });
});

/** The real clock, a station of short songs and a real Liquidsoap harbor that refuses the password. */
describe('the radio host against a harbor that refuses the streamer login', { timeout: 90_000 }, () => {
  let harbor: LiquidsoapHarbor;
  const clock = { now: () => Date.now() };
  const station = new AzuraCastServer({
    clock,
    songs: [
      { title: 'Short One', artist: 'Band', durationS: 3 },
      { title: 'Short Two', artist: 'Band', durationS: 30 },
    ],
  });
  beforeAll(async () => {
    [harbor] = await Promise.all([startHarbor({ username: 'dj', password: 'right' }), station.start()]);
  });
  afterAll(async () => {
    await station.close();
    await harbor?.stop();
  });
  const subject = useTestApp({ startInTest: true, componentRoots: pluginRoots });
  afterEach(() => subject.stop());
  const get = (url: string) => subject.app.inject({ method: 'GET', url });

  it('reports the refused login in status.last_error and the activity, and serves the banter it made', async () => {
    await subject.start({
      environment: {
        RADIO_HOST_ENABLED: 'true',
        STATION_BASE_URL: station.url,
        STATION_ID: station.shortcode,
        RADIO_HOST_POLL_INTERVAL_S: '1',
        STATION_WEBDJ_URL: harbor.url,
        STATION_STREAMER_USERNAME: 'dj',
        STATION_STREAMER_PASSWORD: 'wrong',
      },
    });
    const data = async () => (await get('/api/radio/data')).json<RadioData>();
    // The station has played since the harbor started (seconds), so the first break may come only after the
    // 30 s song: the wait allows for it.
    await vi.waitFor(async () => expect((await data()).status.last_error).toMatch(/refused the streamer login "dj"/), { timeout: 60_000, interval: 200 });
    const { activity } = await data();
    const error = activity.find((entry) => entry.kind === 'error');
    expect(error?.message).toMatch(/STATION_STREAMER_PASSWORD/);
    expect(activity.map((entry) => entry.kind)).toEqual(expect.arrayContaining(['track', 'banter_ready', 'error']));
    expect(activity.map((entry) => entry.id)).toEqual([...activity.map((entry) => entry.id)].sort((a, b) => b - a));

    const ready = activity.find((entry) => entry.kind === 'banter_ready');
    expect(ready?.audio_id).toBe(ready?.id);
    expect(error?.audio_id).toBe(ready?.audio_id);
    const audio = await get(`/api/radio/audio?id=${ready?.audio_id}`);
    expect(audio.statusCode).toBe(200);
    expect(audio.headers['content-type']).toBe('audio/wav');
    expect(audio.rawPayload.subarray(0, 4).toString()).toBe('RIFF');

    const folder = join(subject.harness.cwd, 'tmp_tts', 'radio');
    const outside = join(subject.harness.cwd, 'secret.wav');
    await writeFile(outside, 'not for you');
    expect((await get(`/api/radio/audio?path=${encodeURIComponent(outside)}`)).json()).toMatchObject({ error: { code: 'forbidden' } });
    expect((await get(`/api/radio/audio?path=${encodeURIComponent(`${folder}/../../secret.wav`)}`)).statusCode).toBe(403);
    expect((await get('/api/radio/audio?path=tmp_tts/radio/x.wav')).statusCode).toBe(403);
    expect((await get(`/api/radio/audio?path=${encodeURIComponent(join(folder, 'banter-1-000000000000.wav'))}`)).json()).toMatchObject({
      error: { code: 'not_found' },
    });
    expect((await get('/api/radio/audio?id=999999')).statusCode).toBe(404);
    expect((await get('/api/radio/audio')).json()).toMatchObject({ error: { code: 'invalid_request' } });
    expect((await get('/api/radio/audio?id=abc')).statusCode).toBe(400);
  });
});

describe('banter from the active language model, with what listeners wrote', { timeout: 60_000 }, () => {
  let model: FakeOpenAi;
  const clock = new ManualClock();
  const station = new AzuraCastServer({ clock, songs: [{ title: 'Blue Hour', artist: 'Quartet', durationS: 300 }] });
  beforeAll(async () => {
    [model] = await Promise.all([startFakeOpenAi({ fallback: { kind: 'reply', text: 'Blue Hour, for Ann who asked for jazz!' } }), station.start()]);
  });
  afterAll(async () => {
    await model?.close();
    await station.close();
  });
  const subject = useTestApp({ startInTest: true, componentRoots: withModel });

  it('gives the model the song and the listener messages posted to the integration ingress (source radio)', async () => {
    await subject.start({
      clock,
      environment: {
        CORTEX_ENGINE: 'openai',
        OPENAI_BASE_URL: model.baseUrl,
        STATION_BASE_URL: station.url,
        STATION_ID: station.shortcode,
        RADIO_HOST_LANGUAGE: 'Italian',
      },
    });
    const posted = await subject.app.inject({
      method: 'POST',
      url: '/api/integrations/messages',
      payload: { source: 'radio', type: 'listener_message', payload: { text: 'More jazz please!', name: 'Ann' } },
    });
    expect(posted.statusCode).toBe(202);
    await subject.app.inject({ method: 'POST', url: '/api/config', payload: { key: 'RADIO_HOST_ENABLED', value: 'true' } });
    const data = async () => (await subject.app.inject({ method: 'GET', url: '/api/radio/data' })).json<RadioData>();
    await vi.waitFor(
      async () =>
        expect((await data()).activity.map((entry) => entry.message)).toContain(
          'Banter ready (model) after "Blue Hour": Blue Hour, for Ann who asked for jazz!',
        ),
      {
        timeout: 30_000,
        interval: 200,
      },
    );
    const asked = model.requests.at(-1)?.body.messages ?? [];
    expect(asked[0]?.content).toMatch(/in Italian/);
    expect(asked[1]?.content).toContain('The song that just ended: "Blue Hour" by Quartet.');
    expect(asked[1]?.content).toContain('- Ann: More jazz please!');
    // The template in the station's language is spoken too (both are made at once).
    let template: string | undefined;
    await vi.waitFor(
      async () => {
        template = (await data()).activity.find((entry) => entry.message.startsWith('Banter ready (template)'))?.message;
        expect(template).toBeDefined();
      },
      { timeout: 30_000, interval: 200 },
    );
    expect(template).toMatch(/after "Blue Hour": (Era|Avete appena ascoltato) Blue Hour di Quartet\.$/);
  });
});
