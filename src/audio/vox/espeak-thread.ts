import { parentPort } from 'node:worker_threads';
import { runEspeak, type EspeakResult, type EspeakRun } from './espeak.ts';

/** A run asked of the espeak thread, and its answer (by id). */
export interface EspeakRequest {
  id: number;
  run: EspeakRun;
}
export type EspeakReply = { id: number; result: EspeakResult } | { id: number; error: string };

/** The espeak thread's entry (src/audio/vox/espeak-worker.ts starts it): runs what the main thread asks. */
parentPort?.on('message', ({ id, run }: EspeakRequest) => {
  const reply = (message: EspeakReply) => parentPort?.postMessage(message);
  runEspeak(run).then(
    (result) => reply({ id, result }),
    (error: unknown) => reply({ id, error: error instanceof Error ? error.message : String(error) }),
  );
});
