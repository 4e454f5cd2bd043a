/** Loudness and zero-crossing rate of short frames of speech, and the spans where it sounds. */
export interface SpeechFrames {
  /** Seconds per frame. */
  frameS: number;
  rms: Float32Array;
  /** Zero crossings per sample: high for hissing noise (s, f), low for voiced sound. */
  zcr: Float32Array;
  /** The loudest frame's rms (0 for silence). */
  peak: number;
}

export function analyseFrames(samples: Int16Array, sampleRate: number, frameS: number): SpeechFrames {
  const size = Math.max(1, Math.round(sampleRate * frameS));
  const count = Math.ceil(samples.length / size);
  const rms = new Float32Array(count);
  const zcr = new Float32Array(count);
  let peak = 0;
  for (let frame = 0; frame < count; frame += 1) {
    const start = frame * size;
    const end = Math.min(samples.length, start + size);
    let energy = 0;
    let crossings = 0;
    let previous = samples[start] ?? 0;
    for (let i = start; i < end; i += 1) {
      const value = samples[i] ?? 0;
      energy += value * value;
      if (value >= 0 !== previous >= 0) crossings += 1;
      previous = value;
    }
    rms[frame] = Math.sqrt(energy / (end - start));
    zcr[frame] = crossings / (end - start);
    peak = Math.max(peak, rms[frame] ?? 0);
  }
  return { frameS: size / sampleRate, rms, zcr, peak };
}

/** Frames from `start` to `end` (exclusive). */
export interface Span {
  start: number;
  end: number;
}

/** Quieter than this below the loudest frame is silence: a pause, or the closure of a stop. */
const SILENCE_DB = -45;

export function isSounding(frames: SpeechFrames, index: number): boolean {
  return frames.peak > 0 && (frames.rms[index] ?? 0) >= frames.peak * 10 ** (SILENCE_DB / 20);
}

/** Runs of sounding frames; a gap shorter than `bridgeS` (a stop's closure inside a word) does not split a run. */
export function soundingSpans(frames: SpeechFrames, bridgeS: number): Span[] {
  const spans: Span[] = [];
  const bridge = Math.round(bridgeS / frames.frameS);
  for (let index = 0; index < frames.rms.length; index += 1) {
    if (!isSounding(frames, index)) continue;
    const last = spans.at(-1);
    if (last && index - last.end <= bridge) last.end = index + 1;
    else spans.push({ start: index, end: index + 1 });
  }
  return spans;
}
