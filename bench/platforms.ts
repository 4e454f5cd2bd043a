import { shippedRoots } from '../test/helpers/component-roots.ts';
import type { Scripted } from '../test/helpers/openai-server.ts';
import { createTestServices } from '../test/helpers/services.ts';
import { ask, nextMessage, startModelServer, startProcess } from './lib/child-process.ts';
import { type Benchmark, percentile } from './lib/report.ts';
import type { LoadOrder, Sample } from './lib/stream-load-process.ts';
import type { TelegramOrder, TelegramResult } from './lib/telegram-load-process.ts';

const SEQUENTIAL = 100;
const ROUNDS = 5;
const LOAD = 200;
const CONCURRENCY = 20;
const WARMUP = 40;
/** An instant model: one short answer in a single chunk, at once. */
const ANSWER: Scripted = { kind: 'reply', text: 'Hello there, nice to meet you!', chunkSize: 100, delayMs: 0 };

/**
 * Messages through the Telegram interface (grammY long polling, the message chain with history, prompt
 * and body, the openai engine, sendMessage) against the same instant model called directly. The model
 * server, the Telegram side (a local Bot API server that also times each message, from its update to
 * the bot's answer) and the direct client each run in a process of their own; this process is Anima.
 * The added latency is measured one message at a time (the Telegram side's own part is about a
 * millisecond: the rest is the chain and the sendMessage round trip); the throughput with 20
 * conversations at once
 * (CHAT_MAX_PARALLEL raised to match, as an operator whose model server takes 20 requests would).
 */
const platforms: Benchmark = async (report) => {
  const client = startProcess(new URL('./lib/stream-load-process.ts', import.meta.url));
  const telegram = startProcess(new URL('./lib/telegram-load-process.ts', import.meta.url));
  const { child: model, baseUrl } = await startModelServer(ANSWER);
  const bot = await nextMessage<{ apiRoot: string; token: string }>(telegram);
  const harness = await createTestServices({
    componentRoots: shippedRoots,
    environment: {
      CORTEX_ENGINE: 'openai',
      OPENAI_BASE_URL: baseUrl,
      OPENAI_MODEL: 'fake-model',
      ACTIVE_VOX_ENGINE: 'disabled',
      CHAT_MAX_PARALLEL: String(CONCURRENCY),
      TELEGRAM_BOT_TOKEN: bot.token,
      TELEGRAM_TRAINER_ID: '1',
      TELEGRAM_API_BASE_URL: bot.apiRoot,
    },
  });
  const direct = async (count: number, concurrency: number, round: string) => {
    const order: LoadOrder = { kind: 'openai', url: `${baseUrl}/chat/completions`, count, concurrency, round, spreadMs: 0 };
    const started = performance.now();
    const { samples } = await ask<{ samples: Sample[] }>(client, order);
    return { samples: samples.map((sample) => sample.totalMs), wallMs: performance.now() - started };
  };
  const through = (count: number, concurrency: number, round: string) => ask<TelegramResult>(telegram, { count, concurrency, round } satisfies TelegramOrder);
  try {
    report.progress(`warm-up: ${WARMUP} messages each way`);
    await direct(WARMUP, 1, 'warm');
    await through(WARMUP, 1, 'warm');
    report.progress(`${SEQUENTIAL} messages one at a time in ${ROUNDS} alternating rounds, then ${LOAD} with ${CONCURRENCY} conversations at once, each way`);
    // Alternating rounds spread a noisy moment of the machine over both sides instead of one.
    const directOne: number[] = [];
    const telegramOne: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      directOne.push(...(await direct(SEQUENTIAL / ROUNDS, 1, `one${round}`)).samples);
      telegramOne.push(...(await through(SEQUENTIAL / ROUNDS, 1, `one${round}`)).samples);
    }
    const directLoad = await direct(LOAD, CONCURRENCY, 'load');
    const telegramLoad = await through(LOAD, CONCURRENCY, 'load');
    const p = (samples: number[], at: number) => percentile(samples, at);
    const perSecond = (run: { samples: number[]; wallMs: number }) => run.samples.length / (run.wallMs / 1000);
    report.figure('direct_p50', p(directOne, 50), 'ms');
    report.figure('telegram_p50', p(telegramOne, 50), 'ms');
    report.figure('telegram_p99', p(telegramOne, 99), 'ms');
    report.figure('direct_per_s', perSecond(directLoad), `requests/s (${CONCURRENCY} at once)`);
    report.figure('telegram_per_s', perSecond(telegramLoad), `messages/s (${CONCURRENCY} conversations at once)`);
    report.figure('telegram_load_p50', p(telegramLoad.samples, 50), 'ms');
    report.figure('added_p99', p(telegramOne, 99) - p(directOne, 99), 'ms');
    report.figure('added_p50', p(telegramOne, 50) - p(directOne, 50), 'ms (target <= 10)');
  } finally {
    for (const child of [client, telegram, model]) child.disconnect();
    await harness.close();
  }
};

export default platforms;
