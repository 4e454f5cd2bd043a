import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { BanterEncodings } from '../plugins/radio_host/banter-encodings.ts';
import { injectBanter, prepareBanterAudio } from '../plugins/radio_host/injection/index.ts';
import { PRIME_LEAD_MS } from '../plugins/radio_host/radio-host.ts';
import { systemClock } from '../src/body/clock.ts';
import { createLogger } from '../src/logging.ts';
import { wrapPcm } from '../src/audio/wav.ts';
import { pcmBytes, tone } from '../test/helpers/audio.ts';
import { type LiquidsoapHarbor, measureAudio, startHarbor } from '../test/helpers/liquidsoap-harbor.ts';
import { type Benchmark, percentile } from './lib/report.ts';

const RUNS = 3;
const RATE = 22050;
/** A banter of a few seconds: half a second of silence, six of tone, half a second of silence. */
const CLIP_S = 7;
const SOUND_S = 6;

/** Milliseconds from the call to the harbor beginning to play the session, and the recording measured. */
async function breakOnce(harbor: LiquidsoapHarbor, inject: () => Promise<unknown>) {
  const calledAt = Date.now();
  await inject();
  const recording = await harbor.nextRecording();
  return { startMs: recording.startedAtMs - calledAt, measured: await measureAudio(recording.path) };
}

/** As the station does at a song's end: primed ahead, then told to go live; ms from that to the harbor playing. */
async function primedBreakOnce(harbor: LiquidsoapHarbor, inject: (goLive: Promise<void>) => Promise<unknown>) {
  let release = () => {};
  const goLive = new Promise<void>((resolve) => {
    release = resolve;
  });
  const sending = inject(goLive);
  await new Promise((resolve) => setTimeout(resolve, PRIME_LEAD_MS));
  const releasedAt = Date.now();
  release();
  await sending;
  const recording = await harbor.nextRecording();
  return { startMs: recording.startedAtMs - releasedAt, measured: await measureAudio(recording.path) };
}

/** The WebSocket handshake alone with the same harbor: the least any break can take. */
async function handshakeMs(url: string): Promise<number> {
  const startedAt = performance.now();
  const socket = new WebSocket(url, 'webcast', { perMessageDeflate: false });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const elapsed = performance.now() - startedAt;
  socket.terminate();
  return elapsed;
}

/**
 * A radio break into a real Liquidsoap harbor configured like AzuraCast's: the time from the song's end to
 * the harbor playing the banter, primed ahead and going live at the end (what the station does), and for
 * comparison from the call with the banter encoded ahead and encoded at the call, against the bare
 * WebSocket handshake; and the recorded banter against the clip (target: nothing cut).
 */
const radio: Benchmark = async (report) => {
  const folder = await mkdtemp(join(tmpdir(), 'anima-bench-radio-'));
  const harbor = await startHarbor();
  try {
    const samples = new Int16Array(CLIP_S * RATE);
    samples.set(tone(SOUND_S, RATE), RATE / 2);
    const wavPath = join(folder, 'banter.wav');
    await writeFile(wavPath, wrapPcm(pcmBytes(samples), RATE));
    const gainDb = 4;
    const login = {
      wavPath,
      gainDb,
      webdjUrl: harbor.url,
      username: harbor.username,
      password: harbor.password,
      metadata: { title: 'A banter', artist: harbor.username },
    };
    // As the plugin does: encoded when the line is spoken, taken at the break.
    const encodings = new BanterEncodings({
      encode: prepareBanterAudio,
      gainDb: () => gainDb,
      logger: createLogger({ level: 'silent', pretty: false }).logger,
    });

    const handshakes: number[] = [];
    const primed: number[] = [];
    const prepared: number[] = [];
    const atCall: number[] = [];
    const recordedMinusClip: number[] = [];
    const soundMinusClip: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      handshakes.push(await handshakeMs(harbor.url));
      encodings.clear();
      encodings.prepare(wavPath);
      await encodings.settled();
      const audio = await encodings.take(wavPath, gainDb);
      const live = await primedBreakOnce(harbor, (goLive) => injectBanter({ ...login, audio, goLive }, systemClock));
      const ahead = await breakOnce(harbor, () => injectBanter({ ...login, audio }, systemClock));
      const encoding = await breakOnce(harbor, () => injectBanter(login, systemClock));
      primed.push(live.startMs);
      prepared.push(ahead.startMs);
      atCall.push(encoding.startMs);
      for (const { measured } of [live, ahead, encoding]) {
        recordedMinusClip.push(measured.durationS - CLIP_S);
        soundMinusClip.push(measured.soundS - SOUND_S);
      }
      report.progress(`${run + 1}/${RUNS} breaks`);
    }
    report.figure('handshake_median_ms', percentile(handshakes, 50), 'ms (baseline: WebSocket handshake with the harbor)');
    report.figure(
      'first_audio_primed_median_ms',
      percentile(primed, 50),
      'ms from going live to the harbor playing (primed as the station does; target <= 500)',
    );
    report.figure('first_audio_primed_min_ms', Math.min(...primed), 'ms (target >= 0: never playing before going live)');
    report.figure('first_audio_primed_max_ms', Math.max(...primed), 'ms');
    report.figure('first_audio_prepared_median_ms', percentile(prepared, 50), 'ms from the call to the harbor playing (encoded ahead, not primed)');
    report.figure('first_audio_prepared_max_ms', Math.max(...prepared), 'ms');
    report.figure('first_audio_encoding_at_call_median_ms', percentile(atCall, 50), 'ms (ffmpeg started at the call)');
    report.figure('recorded_minus_clip_min_s', Math.min(...recordedMinusClip), 's (target >= 0: nothing cut)');
    report.figure('sound_minus_clip_sound_max_abs_s', Math.max(...soundMinusClip.map(Math.abs)), 's (target <= 0.05)');
    report.figure('first_audio_prepared_ratio', percentile(prepared, 50) / percentile(handshakes, 50), 'x the handshake');
  } finally {
    await harbor.stop();
    await rm(folder, { recursive: true, force: true });
  }
};

export default radio;
