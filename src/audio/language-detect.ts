import { francAll } from 'franc';
import { FRANC_CANDIDATES, iso639_1Of } from './languages.ts';

export interface DetectedLanguage {
  /** ISO-639-1. */
  code: string;
  /** 0..1: how far the best guess stands ahead of the runner-up. */
  confidence: number;
}

/** Below this margin (measured: wrong guesses on short sentences stay under 0.03) no hint is better. */
export const LANGUAGE_CONFIDENCE_THRESHOLD = 0.05;
/** franc's trigram profiles say little about shorter texts. */
const MIN_LENGTH = 12;

/**
 * The language of the cleaned text, or undefined. franc scores candidates relative to the best (which
 * scores 1), so the confidence is the margin to the second guess: 1 when nothing comes close.
 */
export function detectLanguage(text: string): DetectedLanguage | undefined {
  if (text.length < MIN_LENGTH) return undefined;
  const ranked = francAll(text, { only: FRANC_CANDIDATES, minLength: MIN_LENGTH });
  const [best, second] = ranked;
  if (!best || best[0] === 'und') return undefined;
  const code = iso639_1Of(best[0]);
  if (!code) return undefined;
  return { code, confidence: Math.round((1 - (second?.[1] ?? 0)) * 1000) / 1000 };
}

/** The `language` hint for an engine: the detected code only when the detection is confident. */
export function languageHint(text: string, threshold = LANGUAGE_CONFIDENCE_THRESHOLD): string | undefined {
  const detected = detectLanguage(text);
  return detected && detected.confidence >= threshold ? detected.code : undefined;
}
