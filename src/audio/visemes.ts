import { z } from 'zod';

/** VRM 1.0's mouth expressions, plus `sil` for a closed mouth. */
export const VISEMES = ['aa', 'ih', 'ou', 'ee', 'oh', 'sil'] as const;
export const VisemeSchema = z.enum(VISEMES);
export type Viseme = z.infer<typeof VisemeSchema>;

/** From `time` (seconds) until the next cue the mouth shows `viseme` at `weight` (0..1). */
export const VisemeCueSchema = z.object({ time: z.number().nonnegative(), viseme: VisemeSchema, weight: z.number().min(0).max(1) });
export type VisemeCue = z.infer<typeof VisemeCueSchema>;

/** One mouth shape of a phoneme; a diphthong has two, each taking `share` of the phoneme's time. */
export interface MouthShape {
  viseme: Viseme;
  weight: number;
  share: number;
}

type ShapeTable = Record<string, [Viseme, number]>;

/** Gives each IPA letter of `letters` the same mouth and weight in `table`. */
const filler = (table: ShapeTable) => (letters: string, viseme: Viseme, weight: number) => {
  for (const letter of letters) table[letter] = [viseme, weight];
};

/** IPA vowels by the VRM mouth that shows them (Japanese a i u e o), with how wide they open. */
const VOWELS: ShapeTable = {};
const vowels = filler(VOWELS);
vowels('aɑæʌɐɶ', 'aa', 1);
vowels('iɪɨɯ', 'ih', 0.9);
vowels('uʊʉyʏø', 'ou', 0.9);
vowels('eɛɜɝɘ', 'ee', 0.85);
vowels('əɚ', 'ee', 0.45);
vowels('oɔɒɵɞœɤ', 'oh', 0.9);

/**
 * Consonants show little of the mouth, except the lips: closed for p b m (the closure IS the sound),
 * rounded for w and the postalveolars, lower lip to teeth for f v. The rest leave the teeth slightly apart.
 */
const CONSONANTS: ShapeTable = {};
const consonants = filler(CONSONANTS);
consonants('pbmɸβʙ', 'sil', 1);
consonants('wʍɥ', 'ou', 0.7);
consonants('ʃʒɕʑ', 'ou', 0.45);
consonants('ɹrɾʀʁɻ', 'ou', 0.3);
consonants('fvɱ', 'ih', 0.2);
consonants('szθðtdnlɬɮcɟjʎɲʂʐɭɳʈɖ', 'ih', 0.35);
consonants('kgɡŋxɣqɢχhɦʔçʝħʕ', 'aa', 0.25);

/** Lip shapes that win over the tongue's when a consonant phoneme has several letters (tʃ, dʒ, ts). */
const LIP_PRIORITY: Viseme[] = ['sil', 'ou'];

const STRESSED = 1;
const UNSTRESSED = 0.8;

/** Whether an IPA phoneme has a vowel (a syllable's nucleus, which lasts longer than a consonant). */
export function hasVowel(phoneme: string): boolean {
  return [...phoneme.normalize('NFD')].some((letter) => VOWELS[letter] !== undefined);
}

/** The mouth shapes of one espeak IPA phoneme (`ˈaɪ`, `tʃ`, `ɑːɹ`, `n`); an unknown symbol opens a little. */
export function mouthShapesOf(phoneme: string): MouthShape[] {
  const letters = [...phoneme.normalize('NFD')];
  const stress = letters.includes('ˈ') || letters.includes('ˌ') ? STRESSED : UNSTRESSED;
  const vowelShapes = letters.filter((letter) => VOWELS[letter]);
  if (vowelShapes.length > 0) {
    // A diphthong glides: the first vowel holds most of the time.
    const shares = vowelShapes.length === 1 ? [1] : vowelShapes.map((_, index) => (index === 0 ? 0.6 : 0.4 / (vowelShapes.length - 1)));
    return vowelShapes.map((letter, index) => {
      const [viseme, weight] = VOWELS[letter] as [Viseme, number];
      return { viseme, weight: round(weight * stress), share: shares[index] ?? 0 };
    });
  }
  const shapes = letters.map((letter) => CONSONANTS[letter] ?? VOWELS[letter]).filter((shape) => shape !== undefined);
  const lips = LIP_PRIORITY.map((viseme) => shapes.find(([candidate]) => candidate === viseme)).find((shape) => shape !== undefined);
  const [viseme, weight] = lips ?? shapes[0] ?? ['ih', 0.3];
  return [{ viseme, weight, share: 1 }];
}

/**
 * Rhubarb's mouth letters for clients that read `mouths` only: A lips closed for a consonant, B slightly
 * open, C `ee`, D `aa`, E `oh`, F `ou`, X at rest.
 */
export function mouthLetterOf(cue: Pick<VisemeCue, 'viseme' | 'weight'>, closure: boolean): string {
  if (cue.viseme === 'sil') return closure ? 'A' : 'X';
  if (cue.weight < 0.4) return 'B';
  return { aa: 'D', ih: 'B', ou: 'F', ee: 'C', oh: 'E' }[cue.viseme];
}

/** The other way, for an engine's own lip-sync data that has letters only. */
const LETTER_VISEMES: Record<string, [Viseme, number]> = {
  A: ['sil', 1],
  B: ['ih', 0.5],
  C: ['ee', 0.7],
  D: ['aa', 1],
  E: ['oh', 0.8],
  F: ['ou', 0.9],
  G: ['ih', 0.3],
  H: ['aa', 0.4],
  X: ['sil', 1],
};

export function visemeOfMouthLetter(letter: string): [Viseme, number] {
  return LETTER_VISEMES[letter.toUpperCase()] ?? ['ih', 0.3];
}

/** Rounded to the millisecond; a cue replaced at the same instant, or repeating the one before, goes. */
export function compact(cues: VisemeCue[]): VisemeCue[] {
  const result: VisemeCue[] = [];
  for (const cue of cues) {
    const rounded = { ...cue, time: round(cue.time) };
    const last = result.at(-1);
    if (last && last.time === rounded.time) result.pop();
    const previous = result.at(-1);
    if (previous && previous.viseme === rounded.viseme && previous.weight === rounded.weight) continue;
    result.push(rounded);
  }
  return result;
}

const round = (value: number) => Math.round(value * 1000) / 1000;
