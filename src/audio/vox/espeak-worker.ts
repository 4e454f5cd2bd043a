import { Worker } from 'node:worker_threads';
import type { EspeakResult, EspeakRun } from './espeak.ts';
import type { EspeakReply, EspeakRequest } from './espeak-thread.ts';

interface Waiting {
  resolve(result: EspeakResult): void;
  reject(error: Error): void;
}

/**
 * espeak-ng runs on a thread of its own: one utterance holds the thread that runs it for 150-330 ms,
 * which on the main thread would stall every socket, stream and timer of the process meanwhile. One
 * thread serves every call; it starts with the first, keeps the process alive only while a run is
 * waiting, and a thread that dies fails its waiting runs and is replaced at the next call.
 */
class EspeakThread {
  private worker: Worker | undefined;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;

  run(run: EspeakRun): Promise<EspeakResult> {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise<EspeakResult>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, run } satisfies EspeakRequest);
    });
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const entry = new URL('./espeak-thread.ts', import.meta.url).href;
    // The entry is TypeScript, and a worker does not inherit the main thread's loader: it registers tsx's
    // first, found from here (the eval'd code would look for it from the working directory).
    const tsx = import.meta.resolve('tsx/esm/api');
    const worker = new Worker(`import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`, { eval: true });
    worker.unref();
    worker.on('message', (reply: EspeakReply) => {
      const waiting = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) worker.unref();
      if ('error' in reply) waiting?.reject(new Error(reply.error));
      else waiting?.resolve(reply.result);
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.waiting.values()) waiting.reject(error);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the espeak-ng thread stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }
}

const thread = new EspeakThread();

/** Runs espeak-ng (see espeak.ts) on its own thread. */
export const runEspeakOffThread = (run: EspeakRun): Promise<EspeakResult> => thread.run(run);
