/** The parts of the `espeak-ng` package (Emscripten module, no types of its own) that Anima uses. */
declare module 'espeak-ng' {
  interface ESpeakFs {
    writeFile(path: string, data: string | Uint8Array): void;
    readFile(path: string): Uint8Array;
    analyzePath(path: string): { exists: boolean };
  }
  interface ESpeakModule {
    FS: ESpeakFs;
  }
  interface ESpeakOptions {
    arguments: string[];
    print?: (line: string) => void;
    printErr?: (line: string) => void;
    preRun?: Array<(module: ESpeakModule) => void>;
    /** Emscripten's hook to instantiate a module compiled elsewhere (WebAssembly objects, opaque here). */
    instantiateWasm?: (imports: object, receive: (instance: object, module: object) => void) => object;
  }
  export default function ESpeakNg(options: ESpeakOptions): Promise<ESpeakModule>;
}
