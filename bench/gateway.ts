import { shippedRoots } from '../test/helpers/component-roots.ts';
import type { Scripted } from '../test/helpers/openai-server.ts';
import { createTestServices } from '../test/helpers/services.ts';
import { ask, nextMessage, startModelServer, startProcess } from './lib/child-process.ts';
import type { GatewayOrder, GatewayResult } from './lib/gateway-load-process.ts';
import { type Benchmark, percentile } from './lib/report.ts';
import type { LoadOrder, Sample } from './lib/stream-load-process.ts';

const SEQUENTIAL = 100;
const ROUNDS = 5;
const WARMUP = 40;
const RESUMES = 20;
/** An instant model: one short answer in a single chunk, at once. */
const ANSWER: Scripted = { kind: 'reply', text: 'Hello there, nice to meet you!', chunkSize: 100, delayMs: 0 };

/**
 * Messages through the Fluxer interface (its own gateway client and REST, the message chain with
 * history, prompt and body, the openai engine) against the same instant model called directly, one at a
 * time from the MESSAGE_CREATE dispatch to the REST reply; then the time from a dropped gateway
 * connection to the bot's RESUME (the first reconnection after a drop has no back-off). The model
 * server, the platform (the local Discord-like server) and the direct client each run in a process of
 * their own; this process is Anima.
 */
const gateway: Benchmark = async (report) => {
  const client = startProcess(new URL('./lib/stream-load-process.ts', import.meta.url));
  const platform = startProcess(new URL('./lib/gateway-load-process.ts', import.meta.url));
  const { child: model, baseUrl } = await startModelServer(ANSWER);
  const server = await nextMessage<{ apiBaseUrl: string; token: string }>(platform);
  const harness = await createTestServices({
    componentRoots: shippedRoots,
    environment: {
      CORTEX_ENGINE: 'openai',
      OPENAI_BASE_URL: baseUrl,
      OPENAI_MODEL: 'fake-model',
      ACTIVE_VOX_ENGINE: 'disabled',
      FLUXER_API_BASE_URL: server.apiBaseUrl,
      FLUXER_BOT_TOKEN: server.token,
    },
  });
  const direct = async (count: number, round: string) => {
    const order: LoadOrder = { kind: 'openai', url: `${baseUrl}/chat/completions`, count, concurrency: 1, round, spreadMs: 0 };
    const { samples } = await ask<{ samples: Sample[] }>(client, order);
    return samples.map((sample) => sample.totalMs);
  };
  const through = async (order: GatewayOrder) => (await ask<GatewayResult>(platform, order)).samples;
  try {
    report.progress(`warm-up: ${WARMUP} messages each way`);
    await direct(WARMUP, 'warm');
    await through({ kind: 'messages', count: WARMUP, round: 'warm' });
    report.progress(`${SEQUENTIAL} messages one at a time in ${ROUNDS} alternating rounds each way, then ${RESUMES} drops and resumes`);
    // Alternating rounds spread a noisy moment of the machine over both sides instead of one.
    const directOne: number[] = [];
    const fluxerOne: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      directOne.push(...(await direct(SEQUENTIAL / ROUNDS, `one${round}`)));
      fluxerOne.push(...(await through({ kind: 'messages', count: SEQUENTIAL / ROUNDS, round: `one${round}` })));
    }
    const resumes = await through({ kind: 'resumes', count: RESUMES });
    report.figure('direct_p50', percentile(directOne, 50), 'ms');
    report.figure('fluxer_p50', percentile(fluxerOne, 50), 'ms');
    report.figure('fluxer_p99', percentile(fluxerOne, 99), 'ms');
    report.figure('resume_p50', percentile(resumes, 50), 'ms from the drop to RESUME (target <= 1000, no back-off on a first drop)');
    report.figure('resume_max', Math.max(...resumes), 'ms');
    report.figure('added_p50', percentile(fluxerOne, 50) - percentile(directOne, 50), 'ms (target <= 10)');
  } finally {
    for (const child of [client, platform, model]) child.disconnect();
    await harness.close();
  }
};

export default gateway;
