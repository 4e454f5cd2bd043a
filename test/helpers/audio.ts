import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigStore } from '../../src/config/store.ts';
import { createLogger } from '../../src/logging.ts';
import { startAudio, type AudioServices } from '../../src/audio/audio-services.ts';
import { wrapPcm } from '../../src/audio/wav.ts';

export const silentLogger = () => createLogger({ level: 'silent', pretty: false }).logger;

/** The audio subsystem alone (no body, no chain) over a temporary folder. */
export async function audioHarness(
  environment: Record<string, string> = {},
): Promise<{ audio: AudioServices; config: ConfigStore; cwd: string; close(): Promise<void> }> {
  const cwd = await mkdtemp(join(tmpdir(), 'anima-audio-'));
  const config = ConfigStore.fromSources({ environment });
  const audio = await startAudio({ config, logger: silentLogger(), cwd });
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
