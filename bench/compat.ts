import type { ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { buildCompatApp } from '../src/compat/app.ts';
import { shippedRoots } from '../test/helpers/component-roots.ts';
import { createTestServices } from '../test/helpers/services.ts';
import { nextMessage, startModelServer, startProcess, startServer } from './lib/child-process.ts';
import { percentile, type Benchmark } from './lib/report.ts';
import type { LoadOrder, Sample } from './lib/stream-load-process.ts';

const REQUESTS = 200;
/** Each load runs this many times each way, alternating, its samples pooled. */
const ROUNDS = 3;
const CONCURRENCY = 20;
const WARMUP = 40;
/** A short answer at a fast local-model pace: 24 chunks, 10 ms apart (100 tokens/s for each of the 20 streams). */
const ANSWER = {
  kind: 'reply' as const,
  text: 'The quick brown fox jumps over the lazy dog, again and again, all day long.'.slice(0, 72),
  chunkSize: 3,
  delayMs: 10,
};
const ANSWER_MS = (ANSWER.text.length / ANSWER.chunkSize) * ANSWER.delayMs;
/** What Anima may add to the first chunk under either load, at p50 and at p99 (issue 23). */
const TARGET_MS = { p50: 2, p99: 5 };

async function load(child: ChildProcess, order: LoadOrder): Promise<Sample[]> {
  const answer = nextMessage<{ samples?: Sample[]; error?: string }>(child);
  child.send(order);
  const { samples, error } = await answer;
  if (!samples) throw new Error(error ?? 'the load process failed');
  return samples;
}

/** This process's CPU time (user and system), in milliseconds. */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * Time to first chunk and total time of 200 streamed answers (20 at a time) through the compat port
 * (HTTP, trust, validation, the message chain with history, prompt and body, the openai engine, NDJSON)
 * against the same local OpenAI-compatible test server called directly. The test server and the load
 * generator run in processes of their own, as a model server and a client would; this process is Anima.
 * CHAT_MAX_PARALLEL is raised to the client concurrency, as an operator whose model server takes 20
 * parallel requests would.
 *
 * Two loads, each with the same targets. Spread: the 20 clients start spread over one answer's length,
 * so 20 streams are always in flight, at different points. Burst (`burst_*`): they start together, and
 * with identical scripted answers they stay in lockstep, so every request of all ten rounds arrives in a
 * burst of 20 and the last of a burst waits for the 19 before it. `*compat_cpu_per_request` is this
 * process's CPU time over a load, per request: what Anima takes from the two other processes; beside it,
 * `*relay_cpu_per_request`, the bare relay's process over the same loads. Each load runs
 * three times each way, alternating, and the figures are the percentiles of the pooled samples (600 a
 * side): on this shared machine a single pair of runs moved by more than the targets from run to run.
 * `one_round_*` is the former method, the first round alone, printed beside.
 *
 * A second floor, the bare relay (`relay_*`: bench/lib/bare-relay-process.ts, plain Node turning the same
 * Ollama request into the model's request and its chunks into NDJSON lines, nothing else), runs in the
 * same rounds: what relaying alone adds on this machine, so the rest of Anima's figure is its own work.
 *
 * Each load through Anima runs between the two `process.hrtime` instants it prints, so a profile of
 * this process (`node --cpu-prof`) can be cut to one: `bench/lib/folded-stacks.ts --from --to`.
 */
const compat: Benchmark = async (report) => {
  const client = startProcess(new URL('./lib/stream-load-process.ts', import.meta.url));
  const { child: model, baseUrl } = await startModelServer(ANSWER);
  const relay = await startServer(new URL('./lib/bare-relay-process.ts', import.meta.url), [baseUrl]);
  const harness = await createTestServices({
    componentRoots: shippedRoots,
    environment: { CORTEX_ENGINE: 'openai', OPENAI_BASE_URL: baseUrl, OPENAI_MODEL: 'fake-model', CHAT_MAX_PARALLEL: String(CONCURRENCY) },
  });
  const app = await buildCompatApp(harness.services);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const compatUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/chat`;
  const directUrl = `${baseUrl}/chat/completions`;
  const relayUrl = `http://127.0.0.1:${relay.port}/api/chat`;
  const order = (kind: LoadOrder['kind'], url: string, count: number, round: string, spreadMs = ANSWER_MS): LoadOrder => ({
    kind,
    url,
    count,
    concurrency: CONCURRENCY,
    round,
    spreadMs,
  });
  /**
   * One load `ROUNDS` times, directly, through the bare relay and through Anima in turn (the order turns
   * round by round), samples pooled: a drift of the machine's speed falls on every side alike. Each load
   * through Anima prints its `process.hrtime` window, with the CPU time it cost this process per request.
   */
  const measure = async (name: string, spreadMs: number) => {
    const direct: Sample[] = [];
    const relayed: Sample[] = [];
    const through: Sample[] = [];
    let cpu = 0;
    let relayCpu = 0;
    const directly = async (round: string) => void direct.push(...(await load(client, order('openai', directUrl, REQUESTS, round, spreadMs))));
    const viaRelay = async (round: string) => {
      const before = await relay.cpuMicros();
      relayed.push(...(await load(client, order('ollama', relayUrl, REQUESTS, round, spreadMs))));
      relayCpu += ((await relay.cpuMicros()) - before) / 1000;
    };
    const viaAnima = async (round: string) => {
      const from = process.hrtime.bigint() / 1000n;
      const before = cpuMs();
      through.push(...(await load(client, order('ollama', compatUrl, REQUESTS, round, spreadMs))));
      cpu += cpuMs() - before;
      report.progress(`${round} through Anima ran from ${from} to ${process.hrtime.bigint() / 1000n} µs (process.hrtime)`);
    };
    const sides = [directly, viaAnima, viaRelay];
    for (let round = 1; round <= ROUNDS; round += 1) {
      const label = `${name} ${round}/${ROUNDS}`;
      for (const side of [...sides.slice(round - 1), ...sides.slice(0, round - 1)]) await side(label);
    }
    // The first round alone is the former method (one run each way, direct first), printed beside.
    const first = { direct: direct.slice(0, REQUESTS), through: through.slice(0, REQUESTS) };
    return { direct, relayed, through, first, cpuPerRequest: cpu / (REQUESTS * ROUNDS), relayCpuPerRequest: relayCpu / (REQUESTS * ROUNDS) };
  };
  try {
    report.progress(`warm-up: ${WARMUP} requests each`);
    await load(client, order('openai', directUrl, WARMUP, 'warm'));
    await load(client, order('ollama', relayUrl, WARMUP, 'warm'));
    await load(client, order('ollama', compatUrl, WARMUP, 'warm'));
    report.progress(`${REQUESTS} requests, ${CONCURRENCY} concurrent, each of three ways, ${ROUNDS} times, then the same in bursts`);
    const spreadLoad = await measure('spread', ANSWER_MS);
    const burstLoad = await measure('burst', 0);
    const { direct, relayed, through: spread, first: spreadFirst } = spreadLoad;
    const { direct: directBurst, relayed: relayedBurst, through: burst, first: burstFirst } = burstLoad;
    const p = (samples: Sample[], key: keyof Sample, at: number) =>
      percentile(
        samples.map((sample) => sample[key]),
        at,
      );
    const added = (through: Sample[], around: Sample[], at: 50 | 99) => p(through, 'firstChunkMs', at) - p(around, 'firstChunkMs', at);
    const target = (at: 50 | 99) => `ms (target <= ${TARGET_MS[`p${at}`]})`;
    report.figure('direct_first_chunk_p50', p(direct, 'firstChunkMs', 50), 'ms');
    report.figure('direct_first_chunk_p99', p(direct, 'firstChunkMs', 99), 'ms');
    report.figure('compat_first_chunk_p50', p(spread, 'firstChunkMs', 50), 'ms');
    report.figure('compat_first_chunk_p99', p(spread, 'firstChunkMs', 99), 'ms');
    report.figure('direct_total_p50', p(direct, 'totalMs', 50), 'ms');
    report.figure('compat_total_p50', p(spread, 'totalMs', 50), 'ms');
    report.figure('total_ratio_p50', p(spread, 'totalMs', 50) / p(direct, 'totalMs', 50), 'x');
    report.figure('compat_cpu_per_request', spreadLoad.cpuPerRequest, 'ms');
    report.figure('burst_direct_first_chunk_p50', p(directBurst, 'firstChunkMs', 50), 'ms');
    report.figure('burst_direct_first_chunk_p99', p(directBurst, 'firstChunkMs', 99), 'ms');
    report.figure('burst_compat_first_chunk_p50', p(burst, 'firstChunkMs', 50), 'ms');
    report.figure('burst_compat_first_chunk_p99', p(burst, 'firstChunkMs', 99), 'ms');
    report.figure('burst_compat_cpu_per_request', burstLoad.cpuPerRequest, 'ms');
    report.figure('relay_added_first_chunk_p50', added(relayed, direct, 50), 'ms');
    report.figure('relay_added_first_chunk_p99', added(relayed, direct, 99), 'ms');
    report.figure('burst_relay_added_first_chunk_p50', added(relayedBurst, directBurst, 50), 'ms');
    report.figure('burst_relay_added_first_chunk_p99', added(relayedBurst, directBurst, 99), 'ms');
    report.figure('relay_cpu_per_request', spreadLoad.relayCpuPerRequest, 'ms');
    report.figure('burst_relay_cpu_per_request', burstLoad.relayCpuPerRequest, 'ms');
    report.figure('one_round_burst_added_first_chunk_p99', added(burstFirst.through, burstFirst.direct, 99), 'ms');
    report.figure('one_round_burst_added_first_chunk_p50', added(burstFirst.through, burstFirst.direct, 50), 'ms');
    report.figure('one_round_added_first_chunk_p99', added(spreadFirst.through, spreadFirst.direct, 99), 'ms');
    report.figure('one_round_added_first_chunk_p50', added(spreadFirst.through, spreadFirst.direct, 50), 'ms');
    report.figure('burst_added_first_chunk_p99', added(burst, directBurst, 99), target(99));
    report.figure('burst_added_first_chunk_p50', added(burst, directBurst, 50), target(50));
    report.figure('added_first_chunk_p99', added(spread, direct, 99), target(99));
    report.figure('added_first_chunk_p50', added(spread, direct, 50), target(50));
  } finally {
    client.disconnect();
    relay.stop();
    model.disconnect();
    await app.close();
    await harness.close();
  }
};

export default compat;
