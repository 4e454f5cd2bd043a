import { type SpeechFrames, type Span, soundingSpans } from './speech-frames.ts';
import { compact, hasVowel, type MouthShape, mouthShapesOf, type VisemeCue } from './visemes.ts';

/** One phoneme: its mouth shapes and how long it usually lasts, relative to the others. */
export interface Phone {
  shapes: MouthShape[];
  nominalS: number;
}

/** The phonemes of one clause; espeak pauses between clauses. */
export type Clause = Phone[];

/** Gaps shorter than this inside a run of sound are a stop's closure, not a pause between words. */
const BRIDGE_S = 0.08;
const STOPS = new Set([...'pbtdkgɡqcɟʔ']);

function phoneOf(phoneme: string): Phone {
  const shapes = mouthShapesOf(phoneme);
  const stressed = /[ˈˌ]/.test(phoneme);
  const long = phoneme.includes('ː');
  const vowel = hasVowel(phoneme);
  let nominalS = vowel ? 0.08 * shapes.length * (long ? 1.5 : 1) * (stressed ? 1.2 : 1) : 0.065;
  if (!vowel && STOPS.has([...phoneme].at(-1) ?? '')) nominalS = 0.055;
  return { shapes, nominalS };
}

/**
 * espeak-ng's `--ipa --sep=_` output: one line per clause, words split by spaces, phonemes by `_`.
 * Language switches show as `(en)`; they are not phonemes.
 */
export function parseEspeakPhonemes(lines: string[]): Clause[] {
  return lines
    .map((line) =>
      line
        .replace(/\([a-z-]+\)/gi, ' ')
        .split(/[\s_]+/)
        .filter((phoneme) => /\p{L}/u.test(phoneme))
        .map(phoneOf),
    )
    .filter((clause) => clause.length > 0);
}

const spanSeconds = (frames: SpeechFrames, span: Span) => (span.end - span.start) * frames.frameS;

/**
 * Which sounding spans each clause gets: clause boundaries go to the pause nearest to where the
 * clauses' usual durations put them, in order, each clause keeping at least one span. With fewer spans
 * than clauses (a fast voice that never pauses) every clause shares one timeline.
 */
function spansPerClause(clauses: Clause[], spans: Span[], frames: SpeechFrames): Array<{ phones: Phone[]; spans: Span[] }> {
  const count = clauses.length;
  if (spans.length < count) return [{ phones: clauses.flat(), spans }];
  const speech = [0];
  for (const span of spans) speech.push((speech.at(-1) ?? 0) + spanSeconds(frames, span));
  const nominal = clauses.map((clause) => clause.reduce((sum, phone) => sum + phone.nominalS, 0));
  const totalNominal = nominal.reduce((sum, value) => sum + value, 0);
  const totalSpeech = speech.at(-1) ?? 0;
  const groups: Array<{ phones: Phone[]; spans: Span[] }> = [];
  let first = 0;
  let nominalSoFar = 0;
  clauses.forEach((clause, index) => {
    nominalSoFar += nominal[index] ?? 0;
    let end = spans.length;
    if (index < count - 1) {
      const target = (nominalSoFar / totalNominal) * totalSpeech;
      end = first + 1;
      for (let candidate = first + 1; candidate <= spans.length - (count - 1 - index); candidate += 1) {
        if (Math.abs((speech[candidate] ?? 0) - target) < Math.abs((speech[end] ?? 0) - target)) end = candidate;
      }
    }
    groups.push({ phones: clause, spans: spans.slice(first, end) });
    first = end;
  });
  return groups;
}

/** Spreads phones over the spans' sounding time in proportion to their usual durations. */
function placePhones(phones: Phone[], spans: Span[], frames: SpeechFrames, cues: VisemeCue[]): void {
  const total = spans.reduce((sum, span) => sum + spanSeconds(frames, span), 0);
  const nominal = phones.reduce((sum, phone) => sum + phone.nominalS, 0);
  const scale = nominal > 0 ? total / nominal : 0;
  // Sounding time `position` (seconds from the first span's start, pauses left out) as clip time.
  const clipTime = (position: number) => {
    let left = position;
    for (const span of spans) {
      const length = spanSeconds(frames, span);
      if (left < length) return span.start * frames.frameS + left;
      left -= length;
    }
    const last = spans.at(-1);
    return last ? last.end * frames.frameS : 0;
  };
  let position = 0;
  for (const phone of phones) {
    for (const shape of phone.shapes) {
      cues.push({ time: clipTime(position), viseme: shape.viseme, weight: shape.weight });
      position += phone.nominalS * shape.share * scale;
    }
  }
  for (const span of spans) cues.push({ time: span.end * frames.frameS, viseme: 'sil', weight: 1 });
}

/**
 * A viseme track for phonemes whose timing the voice engine does not report: the audio's sounding
 * spans anchor the clauses (pauses fall between them), and each clause's phonemes share its spans.
 * Cues are in time order, start at 0 and end closed.
 */
export function alignPhonemes(clauses: Clause[], frames: SpeechFrames): VisemeCue[] {
  const spans = soundingSpans(frames, BRIDGE_S);
  const cues: VisemeCue[] = [{ time: 0, viseme: 'sil', weight: 1 }];
  if (clauses.length === 0 || spans.length === 0) return cues;
  for (const group of spansPerClause(clauses, spans, frames)) placePhones(group.phones, group.spans, frames, cues);
  cues.sort((a, b) => a.time - b.time);
  return compact(cues);
}
