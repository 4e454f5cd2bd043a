import { beforeAll, describe, expect, it } from 'vitest';
import { estimateLipsync, type Lipsync, LipsyncSchema, lipsyncFromVisemes, withVisemes } from '../../src/audio/lipsync.ts';
import { alignPhonemes, parseEspeakPhonemes } from '../../src/audio/phoneme-alignment.ts';
import { analyseFrames, isSounding } from '../../src/audio/speech-frames.ts';
import { mouthShapesOf, type VisemeCue } from '../../src/audio/visemes.ts';
import { createLocalVoxEngine } from '../../src/audio/vox/local-engine.ts';
import { runEspeakOffThread } from '../../src/audio/vox/espeak-worker.ts';
import { decodeWav, firstChannel } from '../../src/audio/wav.ts';
import { engineContext } from '../helpers/audio.ts';

const SENTENCE = 'Hello there, how are you today? I am fine, thank you.';

const main = (phoneme: string) => mouthShapesOf(phoneme).map(({ viseme, weight }) => [viseme, weight]);

/** The track's cues in order with each one's end, for checks over time. */
function checkTrack(lipsync: Lipsync): VisemeCue[] {
  expect(LipsyncSchema.safeParse(lipsync).success).toBe(true);
  const cues = lipsync.visemes ?? [];
  expect(cues[0]).toMatchObject({ time: 0, viseme: 'sil' });
  expect(cues.at(-1)?.viseme).toBe('sil');
  const times = cues.map((cue) => cue.time);
  expect(times).toEqual([...times].sort((a, b) => a - b));
  expect(new Set(times).size).toBe(times.length);
  expect(Math.max(...times)).toBeLessThanOrEqual(lipsync.duration);
  return cues;
}

describe('phoneme to viseme mapping', () => {
  it('maps the vowels of espeak IPA to the five VRM mouths, stressed ones wider', () => {
    expect(main('ˈɑː')).toEqual([['aa', 1]]);
    expect(main('æ')).toEqual([['aa', 0.8]]);
    expect(main('ˈiː')).toEqual([['ih', 0.9]]);
    expect(main('uː')).toEqual([['ou', 0.72]]);
    expect(main('ˈɛ')).toEqual([['ee', 0.85]]);
    expect(main('ˈɔ')).toEqual([['oh', 0.9]]);
    expect(main('ə')[0]?.[0]).toBe('ee');
  });

  it('splits a diphthong into its two mouths, the first holding longer', () => {
    expect(mouthShapesOf('ˈoʊ')).toEqual([
      { viseme: 'oh', weight: 0.9, share: 0.6 },
      { viseme: 'ou', weight: 0.9, share: 0.4 },
    ]);
    expect(mouthShapesOf('aɪ').map((shape) => shape.viseme)).toEqual(['aa', 'ih']);
  });

  it('closes the lips for p, b, m, rounds them for w and sh (also in affricates), and barely opens for the rest', () => {
    for (const phoneme of ['p', 'b', 'm']) expect(main(phoneme)).toEqual([['sil', 1]]);
    expect(main('w')[0]?.[0]).toBe('ou');
    expect(main('tʃ')[0]?.[0]).toBe('ou');
    expect(main('dʒ')[0]?.[0]).toBe('ou');
    for (const phoneme of ['s', 't', 'n', 'k', 'f']) expect(mouthShapesOf(phoneme)[0]?.weight).toBeLessThan(0.4);
    expect(main('ʘ')).toEqual([['ih', 0.3]]);
  });

  it('reads espeak-ng --ipa --sep=_ output as clauses of phonemes, without language switches', () => {
    const clauses = parseEspeakPhonemes(['h_ə_l_ˈoʊ ð_ˈɛɹ', '', 'h_ˌaʊ ɑːɹ (fr)b_ɔ̃_ʒ_ˈuʁ(en)']);
    expect(clauses.map((clause) => clause.length)).toEqual([6, 7]);
    expect(clauses[1]?.[2]?.shapes[0]?.viseme).toBe('aa');
  });

  it('gives older clients Rhubarb letters for the same track: A for a closure, X for a pause', () => {
    const lipsync = lipsyncFromVisemes(
      [
        { time: 0.1, viseme: 'aa', weight: 1 },
        { time: 0.2, viseme: 'sil', weight: 1 },
        { time: 0.25, viseme: 'oh', weight: 0.9 },
        { time: 0.4, viseme: 'sil', weight: 1 },
        { time: 0.8, viseme: 'ee', weight: 0.85 },
      ],
      1,
    );
    expect(lipsync.mouths).toEqual([
      { time: 0, value: 'X' },
      { time: 0.1, value: 'D' },
      { time: 0.2, value: 'A' },
      { time: 0.25, value: 'E' },
      { time: 0.4, value: 'X' },
      { time: 0.8, value: 'C' },
      { time: 1, value: 'X' },
    ]);
    expect(lipsync.visemes?.at(-1)).toEqual({ time: 1, viseme: 'sil', weight: 1 });
  });

  it("adds visemes to an engine's letters-only data", () => {
    const lipsync = withVisemes({
      mouths: [
        { time: 0, value: 'X' },
        { time: 0.1, value: 'D' },
        { time: 0.3, value: 'X' },
      ],
      duration: 0.5,
    });
    expect(lipsync.visemes).toEqual([
      { time: 0, viseme: 'sil', weight: 1 },
      { time: 0.1, viseme: 'aa', weight: 1 },
      { time: 0.3, viseme: 'sil', weight: 1 },
    ]);
  });
});

describe('viseme track of the local engine (real espeak-ng)', () => {
  let wav: Uint8Array;
  let lipsync: Lipsync;

  beforeAll(async () => {
    const engine = await createLocalVoxEngine(engineContext());
    wav = (await engine.generate(SENTENCE, undefined, { signal: new AbortController().signal })) as Uint8Array;
    lipsync = engine.lipsync?.(wav) as Lipsync;
  }, 60_000);

  it('asking espeak-ng for the phonemes does not change the audio', async () => {
    const plain = await runEspeakOffThread({ args: ['-v', 'en-us', '-s', '175', '-p', '50'], text: SENTENCE });
    expect(Buffer.from(plain.wav as Uint8Array).equals(Buffer.from(wav))).toBe(true);
  });

  it('is in time order, starts and ends closed, stays within the clip and uses most of the mouths', () => {
    const cues = checkTrack(lipsync);
    const pcm = decodeWav(wav);
    expect(lipsync.duration).toBeCloseTo(pcm.samples.length / pcm.sampleRate, 2);
    expect(new Set(cues.map((cue) => cue.viseme))).toEqual(new Set(['aa', 'ih', 'ou', 'ee', 'oh', 'sil']));
  });

  it('opens the mouth only where the audio sounds, and closes it in the pauses between clauses', () => {
    const pcm = decodeWav(wav);
    const frames = analyseFrames(firstChannel(pcm), pcm.sampleRate, 0.01);
    const cues = lipsync.visemes ?? [];
    cues.forEach((cue, index) => {
      if (cue.viseme === 'sil') return;
      // Within a word a stop's closure (under 80 ms) is silent too: the sound is at most that far.
      const frame = Math.round(cue.time / frames.frameS);
      const near = Array.from({ length: 17 }, (_, offset) => frame + offset - 8).some((index) => isSounding(frames, index));
      expect(near, `${cue.viseme} at ${cue.time}`).toBe(true);
      expect((cues[index + 1]?.time ?? 0) - cue.time).toBeGreaterThan(0);
    });
    // "there,", "today?" and "fine," end clauses: espeak pauses there, and so does the mouth.
    const inner = cues.slice(1, -1);
    const pauses = inner.filter((cue, index) => cue.viseme === 'sil' && (inner[index + 1]?.time ?? lipsync.duration) - cue.time >= 0.1);
    expect(pauses.length).toBe(3);
  });

  it('aligns nothing to silence', () => {
    const frames = analyseFrames(new Int16Array(22050), 22050, 0.01);
    expect(alignPhonemes(parseEspeakPhonemes(['h_ə_l_ˈoʊ']), frames)).toEqual([{ time: 0, viseme: 'sil', weight: 1 }]);
  });
});

describe('audio-only fallback (engines without timing)', () => {
  it('estimates visemes from a real espeak WAV: several mouths, starting and ending closed, in the contract shape', async () => {
    const { wav } = await runEspeakOffThread({ args: ['-v', 'en-us'], text: SENTENCE });
    const pcm = decodeWav(wav as Uint8Array);
    const estimate = estimateLipsync(firstChannel(pcm), pcm.sampleRate);
    const cues = checkTrack(estimate);
    expect(new Set(cues.map((cue) => cue.viseme)).size).toBeGreaterThanOrEqual(4);
    expect(estimate.mouths[0]).toEqual({ time: 0, value: 'X' });
    expect(estimate.mouths.at(-1)?.value).toBe('X');
  }, 60_000);
});
