import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import ESpeakNg, { type ESpeakModule } from 'espeak-ng';

/**
 * espeak-ng compiled to WebAssembly (voice data embedded, nothing downloaded). The program exits after
 * one utterance, so each run gets a fresh Emscripten instance; the 18 MB module is compiled once, and
 * the next run's instance is made ready (instantiated, its embedded files unpacked, main not yet run)
 * as soon as a run takes the current one: instantiating is about 120 ms of a sentence's 160 ms, and a
 * sentence of a spoken reply then waits only for its synthesis.
 */
let compiled: Promise<object> | undefined;

/** Node's WebAssembly global; the project's ES2023 lib (no DOM) types the namespace but not the value. */
const wasmApi = (
  globalThis as unknown as {
    WebAssembly: {
      compile(bytes: Uint8Array): Promise<object>;
      instantiate(module: object, imports: object): Promise<{ exports: object }>;
    };
  }
).WebAssembly;

/** The exports of espeak-ng's WebAssembly instance that a run uses. */
interface WasmExports {
  memory: { buffer: ArrayBuffer };
  malloc(bytes: number): number;
  fflush(stream: number): number;
}

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

/** An instance ready to run the program once, with what it prints. */
interface ReadyInstance {
  module: ESpeakModule;
  exports: WasmExports;
  stdout: string[];
  stderr: string[];
}

let next: Promise<ReadyInstance> | undefined;

async function readyInstance(): Promise<ReadyInstance> {
  const wasm = await wasmModule();
  const stdout: string[] = [];
  const stderr: string[] = [];
  let exports: WasmExports | undefined;
  const module = await ESpeakNg({
    arguments: [],
    noInitialRun: true,
    print: (line) => stdout.push(line),
    // Emscripten reports the program's exit here; real errors come first and are kept for the caller.
    printErr: (line) => stderr.push(line),
    instantiateWasm(imports, receive) {
      void wasmApi.instantiate(wasm, imports).then((instance) => {
        exports = instance.exports as WasmExports;
        receive(instance, wasm);
      });
      return {};
    },
  });
  if (!exports) throw new Error('espeak-ng started without its WebAssembly exports');
  return { module, exports, stdout, stderr };
}

/** The next run's instance, made ready in the background; a failure is only a slower next run. */
function prepareNext(): void {
  const prepared = readyInstance();
  next = prepared;
  prepared.catch(() => {
    if (next === prepared) next = undefined;
  });
}

export async function runEspeak(run: EspeakRun): Promise<EspeakResult> {
  const taken = next ?? readyInstance();
  next = undefined;
  const instance = await taken.catch(() => readyInstance());
  prepareNext();
  const { module, exports, stdout, stderr } = instance;
  const io = run.text === undefined ? [] : ['-f', '/in.txt', '-w', '/out.wav'];
  if (run.text !== undefined) module.FS.writeFile('/in.txt', run.text);
  const args = ['espeak-ng', ...run.args, ...io];
  try {
    module._main(args.length, argv(exports, args));
  } catch (error) {
    // exit() inside the program: its message is already in stderr.
    if (!(error instanceof Object && 'name' in error && error.name === 'ExitStatus')) throw error;
  }
  exports.fflush(0);
  const wav = run.text !== undefined && module.FS.analyzePath('/out.wav').exists ? module.FS.readFile('/out.wav') : undefined;
  return { wav, stdout, stderr: stderr.filter((line) => !line.startsWith('program exited')) };
}

const encoder = new TextEncoder();

/** C's argv in the instance's memory (never freed: the instance runs once and is dropped). */
function argv(exports: WasmExports, args: string[]): number {
  const pointers = args.map((arg) => {
    const bytes = encoder.encode(`${arg}\0`);
    const at = exports.malloc(bytes.length);
    new Uint8Array(exports.memory.buffer, at, bytes.length).set(bytes);
    return at;
  });
  const table = exports.malloc((pointers.length + 1) * 4);
  new Uint32Array(exports.memory.buffer, table, pointers.length + 1).set([...pointers, 0]);
  return table;
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
