import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock, type Clock } from '../../src/body/clock.ts';
import type { EngineContext } from '../../src/audio/engine-registry.ts';
import { ConfigStore } from '../../src/config/store.ts';
import { createLogger } from '../../src/logging.ts';
import { startAudio, type AudioServices } from '../../src/audio/audio-services.ts';
import { resample } from '../../src/audio/live/webrtc-vad.ts';
import { decodeWav, wrapPcm } from '../../src/audio/wav.ts';

export const silentLogger = () => createLogger({ level: 'silent', pretty: false }).logger;

/** What a registry builds one engine with, for an engine built alone. */
export const engineContext = (config = ConfigStore.fromSources({})): EngineContext => ({ settings: {}, config, logger: silentLogger(), clock: systemClock });

/** The audio subsystem alone (no body, no chain) over a temporary folder; `clock` drives its deadlines (a ManualClock). */
export async function audioHarness(
  environment: Record<string, string> = {},
  clock: Clock = systemClock,
): Promise<{ audio: AudioServices; config: ConfigStore; cwd: string; close(): Promise<void> }> {
  const cwd = await mkdtemp(join(tmpdir(), 'anima-audio-'));
  const config = ConfigStore.fromSources({ environment });
  const audio = await startAudio({ config, logger: silentLogger(), cwd, clock });
  return {
    audio,
    config,
    cwd,
    close: async () => {
      await audio.stop();
      await rm(cwd, { recursive: true, force: true });
    },
  };
}

/** A sine tone as 16-bit PCM: something with energy and a low zero-crossing rate. */
export function tone(seconds: number, sampleRate = 16000, frequency = 220, amplitude = 12000): Int16Array {
  const samples = new Int16Array(Math.round(seconds * sampleRate));
  for (let i = 0; i < samples.length; i += 1) samples[i] = Math.round(amplitude * Math.sin((2 * Math.PI * frequency * i) / sampleRate));
  return samples;
}

export const pcmBytes = (samples: Int16Array) => new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength);
export const toneWav = (seconds: number, sampleRate = 22050) => wrapPcm(pcmBytes(tone(seconds, sampleRate)), sampleRate);

/** Lower case words only, for tolerant transcript comparisons. */
export const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z' ]+/g, ' ')
    .split(/\s+/)
    .filter(Boolean);

/** Half a second of silence, `text` spoken by the local Vox engine at `rate`, then `silenceS` seconds of silence. */
export async function spokenPcm(audio: AudioServices, text: string, silenceS = 1, rate = 16000): Promise<Int16Array> {
  const engine = await audio.engines.vox.get('local');
  const wav = decodeWav((await engine.generate(text, undefined, { signal: new AbortController().signal })) as Uint8Array);
  const speech = resample(wav.samples, wav.sampleRate, rate);
  const all = new Int16Array(rate / 2 + speech.length + Math.round(silenceS * rate));
  all.set(speech, rate / 2);
  return all;
}

/** 20 ms binary frames of 16-bit PCM, as a page sends them. */
export function pcmFrames(samples: Int16Array, rate = 16000): Buffer[] {
  const bytes = Buffer.from(pcmBytes(samples));
  const size = (rate / 50) * 2;
  const frames: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += size) frames.push(bytes.subarray(offset, offset + size));
  return frames;
}

/**
 * Sends `frames` (20 ms each) at real-time pace, as a microphone would, and resolves with the
 * performance.now() at which each was sent. A recogniser's timing is only realistic at this pace.
 */
export async function streamAtRealTime(send: (frame: Buffer) => void, frames: Buffer[]): Promise<number[]> {
  const sentAt: number[] = [];
  const start = performance.now();
  for (const [index, frame] of frames.entries()) {
    const due = start + index * 20;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    send(frame);
    sentAt.push(performance.now());
  }
  return sentAt;
}
