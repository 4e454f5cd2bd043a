import { z } from 'zod';
import { analyseFrames, isSounding, type SpeechFrames } from './speech-frames.ts';
import { compact, mouthLetterOf, type Viseme, type VisemeCue, VisemeCueSchema, visemeOfMouthLetter } from './visemes.ts';

/**
 * The contract's lip-sync data, times in seconds: `visemes` (VRM 1.0 mouth expressions with a weight)
 * and, for older clients, `mouths` (Rhubarb letters, "X" closed) derived from them. An engine's own data
 * may lack `visemes`; Vox adds them (withVisemes) before anything is sent.
 */
export const LipsyncSchema = z.object({
  mouths: z.array(z.object({ time: z.number().nonnegative(), value: z.string().min(1).max(2) })),
  visemes: z.array(VisemeCueSchema).optional(),
  duration: z.number().nonnegative(),
});
export type Lipsync = z.infer<typeof LipsyncSchema>;

const round = (value: number) => Math.round(value * 1000) / 1000;

/** A closed mouth shorter than this between sounds is a consonant's closure (p b m), longer a pause. */
const CLOSURE_MAX_S = 0.1;

/** Lip-sync data from a viseme track: the track closed at the end, and its letters for older clients. */
export function lipsyncFromVisemes(track: VisemeCue[], duration: number): Lipsync {
  const cues = compact([{ time: 0, viseme: 'sil', weight: 1 }, ...track]).filter((cue) => cue.time <= round(duration));
  if (cues.at(-1)?.viseme !== 'sil') cues.push({ time: round(duration), viseme: 'sil', weight: 1 });
  const mouths: Lipsync['mouths'] = [];
  cues.forEach((cue, index) => {
    const next = cues[index + 1];
    const closure = index > 0 && next !== undefined && next.time - cue.time < CLOSURE_MAX_S;
    const value = mouthLetterOf(cue, closure);
    if (mouths.at(-1)?.value !== value) mouths.push({ time: cue.time, value });
  });
  return { mouths, visemes: cues, duration: round(duration) };
}

/** An engine's letters-only data gets the matching visemes. */
export function withVisemes(lipsync: Lipsync): Lipsync {
  if (lipsync.visemes?.length) return lipsync;
  const visemes = lipsync.mouths.map((mouth) => {
    const [viseme, weight] = visemeOfMouthLetter(mouth.value);
    return { time: mouth.time, viseme, weight };
  });
  return { ...lipsync, visemes: compact(visemes) };
}

/** The estimate's window: about the length of the shortest phoneme the mouth can show. */
const WINDOW_S = 0.04;

/**
 * Estimates visemes per 40 ms window from the waveform alone, for engines that give no timing. Loudness
 * (relative to the clip's loudest window) sets how wide the mouth opens; the zero-crossing rate tells
 * hissing consonants (mouth almost closed) from voiced sound, and in voiced sound follows the dominant
 * frequency, which is low for rounded vowels (u, o) and high for spread ones (i, e). A rough estimate
 * that reads well on an avatar, not phoneme recognition.
 */
export function estimateLipsync(samples: Int16Array, sampleRate: number): Lipsync {
  const frames = analyseFrames(samples, sampleRate, WINDOW_S);
  const cues: VisemeCue[] = [];
  for (let index = 0; index < frames.rms.length; index += 1) {
    cues.push({ time: index * frames.frameS, ...estimateViseme(frames, index, sampleRate) });
  }
  return lipsyncFromVisemes(compact(cues), samples.length / sampleRate);
}

/** Voiced sound's dominant frequency (Hz) from its zero crossings, and the mouth it suggests. */
const BY_FREQUENCY: Array<[number, Viseme]> = [
  [350, 'ou'],
  [550, 'oh'],
  [1000, 'aa'],
  [1600, 'ee'],
  [Number.POSITIVE_INFINITY, 'ih'],
];

function estimateViseme(frames: SpeechFrames, index: number, sampleRate: number): { viseme: Viseme; weight: number } {
  const loudness = (frames.rms[index] ?? 0) / frames.peak;
  const zcr = frames.zcr[index] ?? 0;
  if (!isSounding(frames, index) || loudness < 0.06) return { viseme: 'sil', weight: 1 };
  // Above ~0.25 crossings per sample the window is mostly noise: s, f, sh, t.
  if (zcr > 0.25) return { viseme: 'ih', weight: 0.3 };
  const frequency = (zcr * sampleRate) / 2;
  const viseme = BY_FREQUENCY.find(([limit]) => frequency < limit)?.[1] ?? 'aa';
  // Quantised, so a steady vowel is one cue rather than one per window.
  return { viseme, weight: Math.min(1, Math.round((0.3 + loudness) * 5) / 5) };
}
