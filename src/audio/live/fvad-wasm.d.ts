/** The parts of `@echogarden/fvad-wasm` (libfvad, the WebRTC VAD, as an Emscripten module) Anima uses. */
declare module '@echogarden/fvad-wasm' {
  export interface FvadModule {
    HEAP16: Int16Array;
    _fvad_new(): number;
    _fvad_free(handle: number): void;
    _fvad_set_mode(handle: number, mode: number): number;
    _fvad_set_sample_rate(handle: number, rate: number): number;
    /** 1 voiced, 0 not, -1 for an invalid frame length. */
    _fvad_process(handle: number, samples: number, length: number): number;
    _malloc(bytes: number): number;
    _free(pointer: number): void;
  }
  export default function fvad(options?: object): Promise<FvadModule>;
}
