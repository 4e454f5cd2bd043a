/**
 * The mouth at one instant of a viseme track. Smoothing is done in audio time, not frame by frame: each
 * cue counts by how much of a short window around the instant it covers, so shapes cross-fade over
 * COARTICULATION_S, and every window that plays the same audio at the same time shows the same mouth,
 * whatever its frame rate. No DOM here: tests run it in Node against what the page showed.
 */
import type { Viseme, VisemeCue } from '../protocol.ts';

const COARTICULATION_S = 0.07;
/** Two shapes at once read as speech; more turn the mouth to mush. */
const STRONGEST = 2;

export type MouthShapes = Partial<Record<Exclude<Viseme, 'sil'>, number>>;

/** Index of the last cue at or before `time` (cues are in time order), or -1. */
function cueAt(cues: VisemeCue[], time: number): number {
  let low = 0;
  let high = cues.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if ((cues[middle]?.time ?? 0) <= time) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

/** The two strongest visemes at `time` (seconds into the clip), each 0..1; empty when the mouth is closed. */
export function blendVisemes(cues: VisemeCue[], time: number, duration: number): MouthShapes {
  const from = time - COARTICULATION_S / 2;
  const to = time + COARTICULATION_S / 2;
  const levels = new Map<Exclude<Viseme, 'sil'>, number>();
  for (let index = Math.max(0, cueAt(cues, from)); index < cues.length; index += 1) {
    const cue = cues[index] as VisemeCue;
    if (cue.time >= to) break;
    if (cue.viseme === 'sil') continue;
    const end = cues[index + 1]?.time ?? duration;
    const covered = Math.max(0, Math.min(to, end) - Math.max(from, cue.time)) / COARTICULATION_S;
    levels.set(cue.viseme, (levels.get(cue.viseme) ?? 0) + covered * cue.weight);
  }
  const strongest = [...levels].sort((a, b) => b[1] - a[1]).slice(0, STRONGEST);
  return Object.fromEntries(strongest.filter(([, level]) => level > 0.001).map(([viseme, level]) => [viseme, Math.min(1, level)]));
}
