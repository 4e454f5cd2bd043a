/** The parts of the `espeak-ng` package (Emscripten module, no types of its own) that Anima uses. */
declare module 'espeak-ng' {
  interface ESpeakFs {
    writeFile(path: string, data: string | Uint8Array): void;
    readFile(path: string): Uint8Array;
    analyzePath(path: string): { exists: boolean };
  }
  export interface ESpeakModule {
    FS: ESpeakFs;
    /** The program's main (argc, argv pointers in the instance's memory), for an instance made with noInitialRun. */
    _main(argc: number, argv: number): number;
  }
  interface ESpeakOptions {
    arguments: string[];
    /** Instantiate without running main: it is run later with `_main`. */
    noInitialRun?: boolean;
    print?: (line: string) => void;
    printErr?: (line: string) => void;
    /** Emscripten's hook to instantiate a module compiled elsewhere (WebAssembly objects, opaque here). */
    instantiateWasm?: (imports: object, receive: (instance: object, module: object) => void) => object;
  }
  export default function ESpeakNg(options: ESpeakOptions): Promise<ESpeakModule>;
}
