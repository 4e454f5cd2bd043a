import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import ESpeakNg from 'espeak-ng';

/**
 * espeak-ng compiled to WebAssembly (voice data embedded, nothing downloaded). Each run is a fresh
 * Emscripten instance (the program exits after one utterance), so the 18 MB module is compiled once
 * and every run only instantiates it: about 150 ms instead of 500 ms per call.
 */
let compiled: Promise<object> | undefined;

/** Node's WebAssembly global; the project's ES2023 lib (no DOM) types the namespace but not the value. */
const wasmApi = (
  globalThis as unknown as {
    WebAssembly: {
      compile(bytes: Uint8Array): Promise<object>;
      instantiate(module: object, imports: object): Promise<object>;
    };
  }
).WebAssembly;

function wasmModule(): Promise<object> {
  compiled ??= (async () => {
    const entry = createRequire(import.meta.url).resolve('espeak-ng');
    return wasmApi.compile(await readFile(entry.replace(/espeak-ng\.js$/, 'espeak-ng.wasm')));
  })();
  compiled.catch(() => (compiled = undefined));
  return compiled;
}

export interface EspeakRun {
  /** Program arguments after the text file and output options. */
  args: string[];
  /** Read from a file, never argv, so text starting with "-" is not taken for an option. */
  text?: string;
}

export interface EspeakResult {
  wav: Uint8Array | undefined;
  stdout: string[];
  stderr: string[];
}

export async function runEspeak(run: EspeakRun): Promise<EspeakResult> {
  const module = await wasmModule();
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io = run.text === undefined ? [] : ['-f', '/in.txt', '-w', '/out.wav'];
  const instance = await ESpeakNg({
    arguments: [...run.args, ...io],
    print: (line) => stdout.push(line),
    // Emscripten reports the program's exit here; real errors come first and are kept for the caller.
    printErr: (line) => stderr.push(line),
    preRun: run.text === undefined ? [] : [(m) => m.FS.writeFile('/in.txt', run.text as string)],
    instantiateWasm(imports, receive) {
      void wasmApi.instantiate(module, imports).then((instance) => receive(instance, module));
      return {};
    },
  });
  const wav = run.text !== undefined && instance.FS.analyzePath('/out.wav').exists ? instance.FS.readFile('/out.wav') : undefined;
  return { wav, stdout, stderr: stderr.filter((line) => !line.startsWith('program exited')) };
}

export interface EspeakVoice {
  /** What `-v` takes: the language identifier (en-us, fr-fr, pt-br ...). */
  language: string;
  name: string;
}

/** `espeak-ng --voices`: "Pty Language Age/Gender VoiceName File Other Languages". */
export function parseVoiceList(lines: string[]): EspeakVoice[] {
  const voices: EspeakVoice[] = [];
  for (const line of lines) {
    const match = /^\s*\d+\s+(\S+)\s+\S+\s+(\S+)\s+\S+/.exec(line);
    if (match?.[1] && match[2]) voices.push({ language: match[1], name: match[2].replace(/_/g, ' ') });
  }
  return voices;
}
