import { describe, expect, it } from 'vitest';
import { estimateLipsync, LipsyncSchema } from '../../src/audio/lipsync.ts';
import { cleanSpeechText } from '../../src/audio/speech-text.ts';
import { decodeWav, durationSeconds, InvalidWavError, isWav, wrapPcm } from '../../src/audio/wav.ts';
import { pcmBytes, tone } from '../helpers/audio.ts';

describe('WAV codec', () => {
  it('wraps raw 16-bit PCM in a WAV container that decodes back to the same samples', () => {
    const samples = tone(0.1, 22050);
    const wav = wrapPcm(pcmBytes(samples), 22050);
    expect(isWav(wav)).toBe(true);
    expect(wav.byteLength).toBe(44 + samples.byteLength);
    const decoded = decodeWav(wav);
    expect(decoded.sampleRate).toBe(22050);
    expect(decoded.channels).toBe(1);
    expect([...decoded.samples]).toEqual([...samples]);
    expect(durationSeconds(decoded)).toBeCloseTo(0.1, 3);
  });

  it('drops a dangling odd byte of PCM instead of producing a broken file', () => {
    const wav = wrapPcm(new Uint8Array([1, 0, 2]), 8000);
    expect(decodeWav(wav).samples.length).toBe(1);
  });

  it('reads 32-bit float WAV as 16-bit samples', () => {
    const header = Buffer.from(wrapPcm(new Uint8Array(8), 16000));
    header.writeUInt16LE(3, 20);
    header.writeUInt16LE(32, 34);
    header.writeUInt16LE(4, 32);
    const data = Buffer.alloc(8);
    data.writeFloatLE(0.5, 0);
    data.writeFloatLE(-1, 4);
    const decoded = decodeWav(Buffer.concat([header.subarray(0, 44), data]));
    expect([...decoded.samples]).toEqual([16384, -32767]);
  });

  it('refuses what is not a WAV file', () => {
    expect(() => decodeWav(Buffer.from('this is not audio at all'))).toThrow(InvalidWavError);
  });
});

describe('speech text cleaning', () => {
  it('removes emoji (with modifiers, joiners and flags) and collapses whitespace', () => {
    expect(cleanSpeechText('  Hello 👋🏽  there 👨‍👩‍👧!\n\nGreat 🇮🇹 day ❤️ ')).toBe('Hello there ! Great day');
  });

  it('keeps letters of every script and punctuation', () => {
    expect(cleanSpeechText('Ça va? ¿Qué tal? Привет, 你好.')).toBe('Ça va? ¿Qué tal? Привет, 你好.');
  });
});

describe('lip-sync estimate', () => {
  it('keeps a silent clip closed', () => {
    const lipsync = estimateLipsync(new Int16Array(16000), 16000);
    expect(lipsync).toEqual({ mouths: [{ time: 0, value: 'X' }], visemes: [{ time: 0, viseme: 'sil', weight: 1 }], duration: 1 });
  });

  it('opens the mouth while there is sound and closes it after, in the contract shape', () => {
    const samples = new Int16Array(16000 * 1.5);
    samples.set(tone(1, 16000), 8000);
    const lipsync = estimateLipsync(samples, 16000);
    expect(LipsyncSchema.safeParse(lipsync).success).toBe(true);
    expect(lipsync.duration).toBe(1.5);
    expect(lipsync.mouths[0]).toEqual({ time: 0, value: 'X' });
    const open = lipsync.mouths.find((mouth) => mouth.value !== 'X');
    expect(open?.time).toBeCloseTo(0.48, 1);
    expect(lipsync.mouths.at(-1)?.value).toBe('X');
    const times = lipsync.mouths.map((mouth) => mouth.time);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });
});
