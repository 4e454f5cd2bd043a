import { fork, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { buildCompatApp } from '../src/compat/app.ts';
import { shippedRoots } from '../test/helpers/component-roots.ts';
import { createTestServices } from '../test/helpers/services.ts';
import { percentile, type Benchmark } from './lib/report.ts';
import type { LoadOrder, Sample } from './lib/stream-load-process.ts';

const REQUESTS = 200;
const CONCURRENCY = 20;
const WARMUP = 40;
/** A short answer at a fast local-model pace: 24 chunks, 10 ms apart (100 tokens/s for each of the 20 streams). */
const ANSWER = { kind: 'reply', text: 'The quick brown fox jumps over the lazy dog, again and again, all day long.'.slice(0, 72), chunkSize: 3, delayMs: 10 };
const ANSWER_MS = (ANSWER.text.length / ANSWER.chunkSize) * ANSWER.delayMs;

function start(file: string, args: string[] = []): ChildProcess {
  return fork(fileURLToPath(new URL(file, import.meta.url)), args, { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

const reply = <T>(child: ChildProcess) =>
  new Promise<T>((resolve, reject) => {
    child.once('message', (message) => resolve(message as T));
    child.once('exit', (code) => reject(new Error(`${child.spawnfile} exited with ${code}`)));
  });

async function load(child: ChildProcess, order: LoadOrder): Promise<Sample[]> {
  child.send(order);
  const answer = await reply<{ samples?: Sample[]; error?: string }>(child);
  if (!answer.samples) throw new Error(answer.error ?? 'the load process failed');
  return answer.samples;
}

/**
 * Time to first chunk and total time of 200 streamed answers (20 at a time) through the compat port
 * (HTTP, trust, validation, the message chain with history, prompt and body, the openai engine, NDJSON)
 * against the same local OpenAI-compatible test server called directly. The test server and the load
 * generator run in processes of their own, as a model server and a client would; this process is Anima.
 * CHAT_MAX_PARALLEL is raised to the client concurrency, as an operator whose model server takes 20
 * parallel requests would.
 *
 * The 20 clients start spread over one answer's length, so 20 streams are always in flight, at
 * different points. Started together, with identical scripted answers they stay in lockstep: every
 * request of all ten rounds arrives in a burst of 20 within a millisecond or two, and the figures
 * measure how a burst queues rather than what a request adds. That burst is measured too, as `burst_*`
 * (no target): the last request of a burst waits for the 19 before it.
 */
const compat: Benchmark = async (report) => {
  const model = start('./lib/model-server-process.ts', [JSON.stringify(ANSWER)]);
  const client = start('./lib/stream-load-process.ts');
  const { baseUrl } = await reply<{ baseUrl: string }>(model);
  const harness = await createTestServices({
    componentRoots: shippedRoots,
    environment: { CORTEX_ENGINE: 'openai', OPENAI_BASE_URL: baseUrl, OPENAI_MODEL: 'fake-model', CHAT_MAX_PARALLEL: String(CONCURRENCY) },
  });
  const app = await buildCompatApp(harness.services);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const compatUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/chat`;
  const directUrl = `${baseUrl}/chat/completions`;
  const order = (kind: LoadOrder['kind'], url: string, count: number, round: string, spreadMs = ANSWER_MS): LoadOrder => ({
    kind,
    url,
    count,
    concurrency: CONCURRENCY,
    round,
    spreadMs,
  });
  try {
    report.progress(`warm-up: ${WARMUP} requests each`);
    await load(client, order('openai', directUrl, WARMUP, 'warm'));
    await load(client, order('ollama', compatUrl, WARMUP, 'warm'));
    report.progress(`${REQUESTS} requests, ${CONCURRENCY} concurrent, each way, then the same in bursts`);
    const direct = await load(client, order('openai', directUrl, REQUESTS, 'run'));
    const measured = await load(client, order('ollama', compatUrl, REQUESTS, 'run'));
    const directBurst = await load(client, order('openai', directUrl, REQUESTS, 'burst', 0));
    const measuredBurst = await load(client, order('ollama', compatUrl, REQUESTS, 'burst', 0));
    const p = (samples: Sample[], key: keyof Sample, at: number) =>
      percentile(
        samples.map((sample) => sample[key]),
        at,
      );
    const added = (through: Sample[], around: Sample[], at: number) => p(through, 'firstChunkMs', at) - p(around, 'firstChunkMs', at);
    report.figure('direct_first_chunk_p50', p(direct, 'firstChunkMs', 50), 'ms');
    report.figure('direct_first_chunk_p99', p(direct, 'firstChunkMs', 99), 'ms');
    report.figure('compat_first_chunk_p50', p(measured, 'firstChunkMs', 50), 'ms');
    report.figure('compat_first_chunk_p99', p(measured, 'firstChunkMs', 99), 'ms');
    report.figure('direct_total_p50', p(direct, 'totalMs', 50), 'ms');
    report.figure('compat_total_p50', p(measured, 'totalMs', 50), 'ms');
    report.figure('total_ratio_p50', p(measured, 'totalMs', 50) / p(direct, 'totalMs', 50), 'x');
    report.figure('burst_direct_first_chunk_p50', p(directBurst, 'firstChunkMs', 50), 'ms');
    report.figure('burst_direct_first_chunk_p99', p(directBurst, 'firstChunkMs', 99), 'ms');
    report.figure('burst_compat_first_chunk_p50', p(measuredBurst, 'firstChunkMs', 50), 'ms');
    report.figure('burst_compat_first_chunk_p99', p(measuredBurst, 'firstChunkMs', 99), 'ms');
    report.figure('added_first_chunk_p99', added(measured, direct, 99), 'ms (target <= 20)');
    report.figure('added_first_chunk_p50', added(measured, direct, 50), 'ms (target <= 5)');
  } finally {
    client.disconnect();
    model.disconnect();
    await app.close();
    await harness.close();
  }
};

export default compat;
