import { z } from 'zod';

/** The contract's lip-sync data: mouth shapes (viseme letters, "X" closed) over time, in seconds. */
export const LipsyncSchema = z.object({
  mouths: z.array(z.object({ time: z.number().nonnegative(), value: z.string().min(1).max(2) })),
  duration: z.number().nonnegative(),
});
export type Lipsync = z.infer<typeof LipsyncSchema>;

/** One analysis window; 40 ms is about the length of the shortest phoneme the mouth can show. */
const WINDOW_S = 0.04;

/**
 * Estimates a viseme per 40 ms window from the waveform alone, for engines that give no timing. It uses
 * the Rhubarb letters (A closed-ish consonants, B slightly open, C open, D wide, E rounded, F "oo", X
 * rest) from two cheap features: loudness (RMS relative to the clip's loudest window) picks how wide
 * the mouth opens, and the zero-crossing rate tells hissing consonants (high rate, mouth almost closed)
 * from voiced vowels. It is a rough estimate that reads well on an avatar, not phoneme recognition.
 * Consecutive equal shapes are merged, so the timeline lists changes only.
 */
export function estimateLipsync(samples: Int16Array, sampleRate: number): Lipsync {
  const duration = samples.length / sampleRate;
  const window = Math.max(1, Math.round(sampleRate * WINDOW_S));
  const frames: Array<{ rms: number; zcr: number }> = [];
  for (let start = 0; start < samples.length; start += window) {
    const end = Math.min(samples.length, start + window);
    let energy = 0;
    let crossings = 0;
    for (let i = start; i < end; i += 1) {
      const value = samples[i] ?? 0;
      energy += value * value;
      if (i > start && value >= 0 !== (samples[i - 1] ?? 0) >= 0) crossings += 1;
    }
    const count = end - start;
    frames.push({ rms: Math.sqrt(energy / count), zcr: crossings / count });
  }
  const peak = frames.reduce((max, frame) => Math.max(max, frame.rms), 0);
  const mouths: Lipsync['mouths'] = [];
  frames.forEach((frame, index) => {
    const value = peak === 0 ? 'X' : visemeOf(frame.rms / peak, frame.zcr);
    if (mouths.at(-1)?.value !== value) mouths.push({ time: round(index * WINDOW_S), value });
  });
  if (mouths.length === 0) mouths.push({ time: 0, value: 'X' });
  if (mouths.at(-1)?.value !== 'X') mouths.push({ time: round(duration), value: 'X' });
  return { mouths, duration: round(duration) };
}

function visemeOf(loudness: number, zcr: number): string {
  if (loudness < 0.06) return 'X';
  // Above ~0.25 crossings per sample the window is mostly noise: s, f, sh, t.
  if (zcr > 0.25) return loudness < 0.3 ? 'B' : 'F';
  if (loudness < 0.2) return 'A';
  if (loudness < 0.45) return 'B';
  if (loudness < 0.7) return zcr < 0.05 ? 'E' : 'C';
  return 'D';
}

const round = (value: number) => Math.round(value * 1000) / 1000;
