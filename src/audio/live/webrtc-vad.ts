import fvad, { type FvadModule } from '@echogarden/fvad-wasm';

/** Rates libfvad accepts; other client rates are resampled to 16 kHz first. */
const NATIVE_RATES = new Set([8000, 16000, 32000, 48000]);
export const FRAME_MS = 20;

let loaded: Promise<FvadModule> | undefined;
const module = () => {
  loaded ??= fvad();
  loaded.catch(() => (loaded = undefined));
  return loaded;
};

/**
 * One WebRTC voice-activity detector (libfvad in WebAssembly): feed it 16-bit samples of any length and
 * get one voiced/unvoiced decision per 20 ms frame.
 */
export class WebRtcVad {
  private readonly rate: number;
  private readonly frameSamples: number;
  private pending = new Int16Array(0);
  private pointer: number;
  private handle: number;

  private constructor(
    private readonly wasm: FvadModule,
    readonly inputRate: number,
    mode: number,
  ) {
    this.rate = NATIVE_RATES.has(inputRate) ? inputRate : 16000;
    this.frameSamples = (this.rate * FRAME_MS) / 1000;
    this.handle = wasm._fvad_new();
    if (this.handle === 0) throw new Error('libfvad could not allocate a detector');
    wasm._fvad_set_mode(this.handle, mode);
    wasm._fvad_set_sample_rate(this.handle, this.rate);
    this.pointer = wasm._malloc(this.frameSamples * 2);
  }

  /** mode 0 (least aggressive) to 3 (most aggressive about calling noise "not speech"). */
  static async create(inputRate: number, mode = 2): Promise<WebRtcVad> {
    return new WebRtcVad(await module(), inputRate, mode);
  }

  /** Decisions for every complete frame in the samples so far; a partial frame waits for the next call. */
  process(samples: Int16Array): boolean[] {
    const input = this.rate === this.inputRate ? samples : resample(samples, this.inputRate, this.rate);
    const all = new Int16Array(this.pending.length + input.length);
    all.set(this.pending);
    all.set(input, this.pending.length);
    const decisions: boolean[] = [];
    let offset = 0;
    for (; offset + this.frameSamples <= all.length; offset += this.frameSamples) {
      this.wasm.HEAP16.set(all.subarray(offset, offset + this.frameSamples), this.pointer >> 1);
      decisions.push(this.wasm._fvad_process(this.handle, this.pointer, this.frameSamples) === 1);
    }
    this.pending = all.slice(offset);
    return decisions;
  }

  free(): void {
    if (this.handle === 0) return;
    this.wasm._free(this.pointer);
    this.wasm._fvad_free(this.handle);
    this.handle = 0;
  }
}

/** Linear interpolation: plenty for a voice/no-voice decision. */
export function resample(samples: Int16Array, from: number, to: number): Int16Array {
  const length = Math.floor((samples.length * to) / from);
  const out = new Int16Array(length);
  const step = from / to;
  for (let i = 0; i < length; i += 1) {
    const position = i * step;
    const index = Math.floor(position);
    const fraction = position - index;
    const a = samples[index] ?? 0;
    const b = samples[index + 1] ?? a;
    out[i] = Math.round(a + (b - a) * fraction);
  }
  return out;
}
