import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { startAudio } from '../src/audio/audio-services.ts';
import { systemClock } from '../src/body/clock.ts';
import type { LiveEvent } from '../src/audio/live/contract.ts';
import { resample } from '../src/audio/live/webrtc-vad.ts';
import { decodeWav } from '../src/audio/wav.ts';
import { ConfigStore } from '../src/config/store.ts';
import { createLogger } from '../src/logging.ts';
import { percentile, type Benchmark } from './lib/report.ts';

const SENTENCES = 50;
const VAD_TRIALS = 5;
const FRAME_MS = 20;
const TEXTS = [
  'Good morning! The coffee is ready and the sun is out.',
  'I found three new songs you might like, shall I play them?',
  'Your meeting starts in ten minutes, do not forget the slides.',
  'That was a great question, let me think about it for a moment.',
  'The weather tomorrow looks cloudy with a chance of light rain.',
];

/**
 * Vox pipeline overhead: 50 sentences through VoxPlugin.speak (clean, detect language, choose engine,
 * generate, write WAV, lip-sync, deliver) against the time the engine itself spent generating in the
 * same calls. Then the live `vad` engine fed in real time: wall time from sending the chunk where speech
 * begins to the speech_start event.
 */
const bench: Benchmark = async (report) => {
  const cwd = await mkdtemp(join(tmpdir(), 'anima-bench-vox-'));
  const config = ConfigStore.fromSources({ environment: { LIVE_CORTEX: 'vad' } });
  const audio = await startAudio({ config, logger: createLogger({ level: 'silent', pretty: false }).logger, cwd, clock: systemClock });
  audio.vox.outlets.setFallback({ audio: async () => true, text: async () => true });
  try {
    await audio.vox.speak({ text: 'Warming up the voice.', interfacePath: 'bench/1' });
    let pipelineMs = 0;
    let engineMs = 0;
    const perCall: number[] = [];
    // Everything else the process does waits while its event loop is held: sockets, streams, timers.
    const loopDelay = monitorEventLoopDelay({ resolution: 5 });
    loopDelay.enable();
    for (let i = 0; i < SENTENCES; i += 1) {
      const started = performance.now();
      const result = await audio.vox.speak({ text: TEXTS[i % TEXTS.length] as string, interfacePath: 'bench/1', emotion: 'happy' });
      const elapsed = performance.now() - started;
      if (result.status !== 'success') throw new Error(`speech failed: ${result.detail}`);
      pipelineMs += elapsed;
      engineMs += result.engine_ms ?? 0;
      perCall.push(elapsed - (result.engine_ms ?? 0));
      if (i % 10 === 9) report.progress(`${i + 1}/${SENTENCES} sentences`);
    }
    loopDelay.disable();
    report.figure('event_loop_max_delay_ms', loopDelay.max / 1e6, 'ms while speaking (target <= 50)');
    report.figure('engine_ms_per_sentence', engineMs / SENTENCES, 'ms');
    report.figure('pipeline_ms_per_sentence', pipelineMs / SENTENCES, 'ms');
    report.figure('overhead_p95_ms', percentile(perCall, 95), 'ms');
    report.figure('overhead_percent', ((pipelineMs - engineMs) / engineMs) * 100, '% (target <= 10)');

    const latencies: number[] = [];
    const engine = await audio.engines.vox.get('local');
    const wav = decodeWav((await engine.generate(TEXTS[0] as string, undefined, { signal: new AbortController().signal })) as Uint8Array);
    const speech = resample(wav.samples, wav.sampleRate, 16000);
    const onset = onsetSample(speech);
    for (let trial = 0; trial < VAD_TRIALS; trial += 1) latencies.push(await vadLatency(audio.live, speech, onset));
    report.figure('vad_first_event_median_ms', percentile(latencies, 50), 'ms');
    report.figure('vad_first_event_max_ms', Math.max(...latencies), 'ms (target <= 100)');
  } finally {
    await audio.stop();
    await rm(cwd, { recursive: true, force: true });
  }
};

/** The first sample of the first 20 ms frame loud enough to be speech (the waveform's own onset). */
function onsetSample(samples: Int16Array): number {
  const frame = (16000 * FRAME_MS) / 1000;
  for (let start = 0; start + frame <= samples.length; start += frame) {
    let energy = 0;
    for (let i = start; i < start + frame; i += 1) energy += (samples[i] ?? 0) ** 2;
    if (Math.sqrt(energy / frame) > 500) return start;
  }
  return 0;
}

/** Half a second of silence then the speech, sent at real-time pace; ms from the onset chunk to speech_start. */
async function vadLatency(live: Awaited<ReturnType<typeof startAudio>>['live'], speech: Int16Array, onset: number): Promise<number> {
  const frame = (16000 * FRAME_MS) / 1000;
  const lead = 8000;
  const all = new Int16Array(lead + speech.length);
  all.set(speech, lead);
  const onsetChunk = Math.floor((lead + onset) / frame);
  let sentOnsetAt = 0;
  let resolveStart: (at: number) => void = () => undefined;
  const started = new Promise<number>((resolve) => (resolveStart = resolve));
  const session = await live.open({
    engine: 'vad',
    sampleRate: 16000,
    sink: { event: (event: LiveEvent) => event.vadSignal === 'speech_start' && resolveStart(performance.now()), answer: () => undefined },
  });
  const begin = performance.now();
  for (let chunk = 0; chunk * frame < all.length; chunk += 1) {
    const due = begin + chunk * FRAME_MS;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (chunk === onsetChunk) sentOnsetAt = performance.now();
    const piece = all.subarray(chunk * frame, (chunk + 1) * frame);
    session.push(new Uint8Array(piece.buffer, piece.byteOffset, piece.byteLength));
    if (chunk > onsetChunk + 25) break;
  }
  const at = await Promise.race([started, new Promise<number>((resolve) => setTimeout(() => resolve(Number.NaN), 2000))]);
  await session.close();
  return at - sentOnsetAt;
}

export default bench;
