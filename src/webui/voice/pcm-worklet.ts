/**
 * The microphone's AudioWorklet (bundled as its own module and served with the page): averages the
 * capture rate's samples down to 16 kHz mono and posts 20 ms frames of 16-bit PCM to the page, which
 * sends them on WS /api/audio/stream. Runs on the audio thread, so it imports nothing.
 */

// The AudioWorkletGlobalScope's own names, which the DOM library does not declare.
declare const sampleRate: number;
declare function registerProcessor(name: string, processor: new () => AudioWorkletProcessor): void;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}

/** mic-capture.ts names the same processor (an import would pull the page's code into the audio thread). */
const PROCESSOR_NAME = 'anima-pcm-16k';
const TARGET_RATE = 16000;
const FRAME_SAMPLES = 320;

class PcmDownsampler extends AudioWorkletProcessor {
  /** Input samples per output sample (3 for a 48 kHz capture). */
  private readonly step = sampleRate / TARGET_RATE;
  private progress = 0;
  private sum = 0;
  private count = 0;
  private frame = new Int16Array(FRAME_SAMPLES);
  private filled = 0;

  process(inputs: Float32Array[][]): boolean {
    const channel = inputs[0]?.[0];
    if (!channel) return true;
    for (const sample of channel) {
      this.sum += sample;
      this.count += 1;
      this.progress += 1;
      if (this.progress < this.step) continue;
      this.progress -= this.step;
      this.emit(this.sum / this.count);
      this.sum = 0;
      this.count = 0;
    }
    return true;
  }

  private emit(level: number): void {
    this.frame[this.filled] = Math.round(Math.max(-1, Math.min(1, level)) * 32767);
    this.filled += 1;
    if (this.filled < FRAME_SAMPLES) return;
    this.port.postMessage(this.frame.buffer, [this.frame.buffer]);
    this.frame = new Int16Array(FRAME_SAMPLES);
    this.filled = 0;
  }
}

registerProcessor(PROCESSOR_NAME, PcmDownsampler);

export {};
