import { performance } from 'node:perf_hooks';
import { estimateLipsync, type Lipsync, lipsyncFromVisemes } from '../src/audio/lipsync.ts';
import { WebRtcVad } from '../src/audio/live/webrtc-vad.ts';
import { parseEspeakPhonemes } from '../src/audio/phoneme-alignment.ts';
import { analyseFrames } from '../src/audio/speech-frames.ts';
import type { VisemeCue } from '../src/audio/visemes.ts';
import { runEspeakOffThread } from '../src/audio/vox/espeak-worker.ts';
import { createLocalVoxEngine } from '../src/audio/vox/local-engine.ts';
import { decodeWav, firstChannel, type Pcm16 } from '../src/audio/wav.ts';
import { systemClock } from '../src/body/clock.ts';
import { ConfigStore } from '../src/config/store.ts';
import { createLogger } from '../src/logging.ts';
import type { Benchmark } from './lib/report.ts';

const ROUNDS = 4;
const TEXTS = [
  'Good morning! The coffee is ready and the sun is out.',
  'I found three new songs you might like, shall I play them?',
  'Your meeting starts in ten minutes, do not forget the slides.',
  'That was a great question, let me think about it for a moment.',
  'The weather tomorrow looks cloudy with a chance of light rain, so bring a coat.',
];
const VAD_FRAME_S = 0.02;
/** A pause: at least this long below PAUSE_DB of the loudest frame. */
const PAUSE_S = 0.1;
const PAUSE_DB = -60;

/**
 * Visemes of the local voice (espeak-ng): the time to extract the viseme track (decode, frame analysis,
 * phoneme alignment) per second of speech against the time espeak-ng took to synthesise it, and how well
 * the track's open mouth (any viseme but `sil`) agrees with the audio's voiced segments: the 20 ms frames
 * WebRTC's voice activity detector (libfvad, mode 3) calls speech, except inside pauses (100 ms or more
 * below -60 dB), where the detector's hangover keeps calling speech after the sound has stopped; the raw
 * detector's figure is printed too. Baselines from the same run: the same phonemes spread evenly over the
 * clip (no alignment), and the audio-only estimate used for engines without timing.
 */
const bench: Benchmark = async (report) => {
  const engine = await createLocalVoxEngine({
    settings: {},
    config: ConfigStore.fromSources({ environment: {} }),
    logger: createLogger({ level: 'silent', pretty: false }).logger,
    clock: systemClock,
  });
  const signal = new AbortController().signal;
  const vad = await WebRtcVad.create(22050, 3);
  let speechS = 0;
  let synthesisMs = 0;
  let extractionMs = 0;
  const agreement = { aligned: [0, 0], raw: [0, 0], even: [0, 0], estimate: [0, 0] };
  const add = (into: number[], [agree, frames]: [number, number]) => {
    into[0] = (into[0] ?? 0) + agree;
    into[1] = (into[1] ?? 0) + frames;
  };
  await engine.generate('Warming up the voice.', undefined, { signal }).then((wav) => engine.lipsync?.(wav as Uint8Array));
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const text of TEXTS) {
      const started = performance.now();
      const wav = (await engine.generate(text, undefined, { signal })) as Uint8Array;
      const synthesised = performance.now();
      const lipsync = engine.lipsync?.(wav) as Lipsync;
      extractionMs += performance.now() - synthesised;
      synthesisMs += synthesised - started;
      const pcm = decodeWav(wav);
      speechS += lipsync.duration;
      const detected = vad.process(firstChannel(pcm));
      // Flushes the detector's partial frame, so the next clip starts on a frame of its own.
      vad.process(new Int16Array(Math.round(pcm.sampleRate * VAD_FRAME_S)));
      const voiced = outsidePauses(detected, pcm);
      add(agreement.aligned, agree(lipsync.visemes ?? [], voiced));
      add(agreement.raw, agree(lipsync.visemes ?? [], detected));
      add(agreement.even, agree((await evenlySpread(text, pcm)).visemes ?? [], voiced));
      add(agreement.estimate, agree(estimateLipsync(firstChannel(pcm), pcm.sampleRate).visemes ?? [], voiced));
    }
    report.progress(`round ${round + 1}/${ROUNDS}`);
  }
  vad.free();
  const percent = ([agreeing, frames]: number[]) => ((agreeing ?? 0) / (frames || 1)) * 100;
  report.figure('speech_s', speechS, 's of speech');
  report.figure('synthesis_ms_per_speech_s', synthesisMs / speechS, 'ms');
  report.figure('extraction_ms_per_speech_s', extractionMs / speechS, 'ms');
  report.figure('agreement_percent', percent(agreement.aligned), '% of 20 ms frames, open mouth = voiced (target >= 90)');
  report.figure('raw_vad_agreement_percent', percent(agreement.raw), '% (the detector with its hangover into pauses)');
  report.figure('even_spread_agreement_percent', percent(agreement.even), '% (baseline: phonemes spread evenly, no alignment)');
  report.figure('audio_estimate_agreement_percent', percent(agreement.estimate), '% (fallback for engines without timing)');
  report.figure('ratio', extractionMs / synthesisMs, 'x extraction / synthesis time (target <= 0.05)');
};

/** The detector's speech frames, less those inside a pause of the audio. */
function outsidePauses(detected: boolean[], pcm: Pcm16): boolean[] {
  const frames = analyseFrames(firstChannel(pcm), pcm.sampleRate, VAD_FRAME_S);
  const quiet = (index: number) => (frames.rms[index] ?? 0) <= frames.peak * 10 ** (PAUSE_DB / 20);
  const voiced = [...detected];
  const minimum = Math.round(PAUSE_S / VAD_FRAME_S);
  for (let start = 0; start < voiced.length; ) {
    let end = start;
    while (end < voiced.length && quiet(end)) end += 1;
    if (end - start >= minimum) voiced.fill(false, start, end);
    start = Math.max(end, start + 1);
  }
  return voiced;
}

/** Frames where the track's mouth is open exactly when the detector hears voice, and all frames. */
function agree(cues: VisemeCue[], voiced: boolean[]): [number, number] {
  let agreeing = 0;
  let index = 0;
  voiced.forEach((isVoiced, frame) => {
    const time = (frame + 0.5) * VAD_FRAME_S;
    while (index + 1 < cues.length && (cues[index + 1]?.time ?? 0) <= time) index += 1;
    if ((cues[index]?.viseme !== 'sil') === isVoiced) agreeing += 1;
  });
  return [agreeing, voiced.length];
}

/** The baseline: espeak's phonemes for the text at equal shares of the whole clip. */
async function evenlySpread(text: string, pcm: Pcm16): Promise<Lipsync> {
  const { stdout } = await runEspeakOffThread({ args: ['-v', 'en-us', '-q', '--ipa', '--sep=_'], text });
  const phones = parseEspeakPhonemes(stdout).flat();
  const duration = pcm.samples.length / pcm.channels / pcm.sampleRate;
  const cues = phones.flatMap((phone, index) =>
    phone.shapes.map((shape, part) => ({
      time: ((index + part / phone.shapes.length) / phones.length) * duration,
      viseme: shape.viseme,
      weight: shape.weight,
    })),
  );
  return lipsyncFromVisemes(cues, duration);
}

export default bench;
