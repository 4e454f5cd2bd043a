import { setMaxListeners } from 'node:events';
import { readdir, readFile, rm } from 'node:fs/promises';
import { isBanner, spawnAnima } from '../test/helpers/anima-process.ts';
import { freePort } from '../test/helpers/free-port.ts';
import type { Scripted } from '../test/helpers/openai-server.ts';
import { copyFixtureSkins } from '../test/helpers/upload-files.ts';
import { startModelServer } from './lib/child-process.ts';
import { percentile, type Benchmark } from './lib/report.ts';
import { compatStream, MinuteSamples, openWebWindow, uploads, type Traffic } from './lib/soak-traffic.ts';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const WEB_CLIENTS = Number(process.env.SOAK_WEB_CLIENTS ?? 500);
const COMPAT_STREAMS = Number(process.env.SOAK_COMPAT_STREAMS ?? 50);
/** Each window says something about once a minute: about 8 chat messages a second from 500 windows. */
const CHAT_EVERY_MS = 60_000;
const UPLOAD_EVERY_MS = 5_000;
const MODEL_RESTART_EVERY_MS = 150_000;
const MODEL_DOWN_MS = 2_000;
/** A short streamed answer, paced like a fast local model. */
const ANSWER: Scripted = { kind: 'reply', text: 'A short answer, streamed in small pieces for the soak.', chunkSize: 6, delayMs: 15 };
/** The log's errors a model-server restart explains: the answers it cut off. */
const EXPECTED_ERRORS = [/^the Cortex engine failed/];

/** Sockets opened at once: the server lets one address keep only a few waiting for their hello. */
const CONNECT_BATCH = 10;

async function processFigures(pid: number): Promise<{ rssMb: number; fds: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return { rssMb: rssKb / 1024, fds: (await readdir(`/proc/${pid}/fd`)).length };
}

const soak: Benchmark = async (report) => {
  const stopped = new AbortController();
  // Every window and stream waits on it at once.
  setMaxListeners(0, stopped.signal);
  const traffic: Traffic = {
    running: () => !stopped.signal.aborted,
    pause: (ms) =>
      new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          stopped.signal.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        stopped.signal.addEventListener('abort', done);
      }),
  };
  const modelPort = await freePort();
  let model = (await startModelServer(ANSWER, modelPort)).child;
  const skins = await copyFixtureSkins();
  // The repository as the working folder: its cortex/ and interface/ components are discovered.
  const anima = spawnAnima(process.cwd(), {
    DATABASE_URL: `sqlite:${skins}/soak.sqlite`,
    SKINS_DIR: skins,
    CORTEX_ENGINE: 'openai',
    OPENAI_BASE_URL: `http://127.0.0.1:${modelPort}/v1`,
    OPENAI_MODEL: 'gpt-soak',
    OPENAI_MAX_RETRIES: '0',
    MULTI_SESSION: 'true',
    MEMORY_ENABLED: 'false',
    CHAT_RATE_LIMIT_BURST: '100000',
    CHAT_RATE_LIMIT_PER_MINUTE: '100000',
  });
  const banner = await anima.waitFor(isBanner, 60_000);
  const web = String(banner.web).replace(/\/$/, '');
  const compat = String(banner.compat).replace(/\/$/, '');
  const pid = anima.child.pid ?? 0;
  const startedAt = performance.now();
  const chat = new MinuteSamples(startedAt);
  const streams = new MinuteSamples(startedAt);
  const uploaded = new MinuteSamples(startedAt);
  const resources: Array<{ rssMb: number; fds: number }> = [];
  try {
    const { models } = (await (await fetch(`${compat}/api/tags`)).json()) as { models: Array<{ name: string }> };
    const modelName = models[0]?.name ?? 'anima';
    const running: Array<Promise<void>> = [];
    for (let opened = 0; opened < WEB_CLIENTS; opened += CONNECT_BATCH) {
      const batch = Array.from({ length: Math.min(CONNECT_BATCH, WEB_CLIENTS - opened) }, () =>
        openWebWindow(`${web.replace(/^http/, 'ws')}/ws`, CHAT_EVERY_MS, chat, traffic),
      );
      running.push(...(await Promise.all(batch)).map((window) => window.chat));
    }
    report.progress(`${WEB_CLIENTS} web windows, ${COMPAT_STREAMS} compat streams, uploads every ${UPLOAD_EVERY_MS / 1000} s, for ${MINUTES} min`);
    for (let index = 0; index < COMPAT_STREAMS; index += 1) running.push(compatStream(compat, modelName, streams, traffic));
    running.push(uploads(web, UPLOAD_EVERY_MS, uploaded, traffic));
    let nextRestart = startedAt + MODEL_RESTART_EVERY_MS;
    for (let minute = 1; minute <= MINUTES; minute += 1) {
      while (performance.now() < startedAt + minute * 60_000) {
        await traffic.pause(1_000);
        if (performance.now() < nextRestart) continue;
        report.progress('model server killed');
        model.kill('SIGKILL');
        await traffic.pause(MODEL_DOWN_MS);
        model = (await startModelServer(ANSWER, modelPort)).child;
        report.progress('model server back');
        nextRestart = performance.now() + MODEL_RESTART_EVERY_MS;
      }
      resources.push(await processFigures(pid));
      report.progress(
        `minute ${minute}: ${chat.minute(minute - 1).length} chat answers, ${streams.minute(minute - 1).length} compat streams, rss ${resources.at(-1)?.rssMb.toFixed(0)} MB`,
      );
    }
    stopped.abort();
    await Promise.all(running);
  } finally {
    stopped.abort();
    model.kill();
    anima.child.kill('SIGTERM');
    await anima.exited;
    await rm(skins, { recursive: true, force: true });
  }
  const last = resources.length - 1;
  const firstFigures = resources[0] ?? { rssMb: Number.NaN, fds: Number.NaN };
  const lastFigures = resources[last] ?? firstFigures;
  const unexpected = anima.lines.filter((line) => line.level >= 50 && !EXPECTED_ERRORS.some((pattern) => pattern.test(line.msg)));
  for (const line of unexpected.slice(0, 5)) report.progress(`unexpected error in the log: ${line.msg}`);
  const p99 = (samples: MinuteSamples, minute: number) => percentile(samples.minute(minute), 99);
  report.figure('chat_p99_first_minute', p99(chat, 0), 'ms');
  report.figure('chat_p99_last_minute', p99(chat, last), 'ms');
  report.figure('compat_first_chunk_p99_first_minute', p99(streams, 0), 'ms');
  report.figure('compat_first_chunk_p99_last_minute', p99(streams, last), 'ms');
  report.figure('upload_p99_first_minute', p99(uploaded, 0), 'ms');
  report.figure('upload_p99_last_minute', p99(uploaded, last), 'ms');
  report.figure('answers', chat.count + streams.count, 'answers');
  report.figure('failed_requests', chat.failures + streams.failures + uploaded.failures, 'requests (the model server restarts cut some)');
  report.figure('rss_growth', ((lastFigures.rssMb - firstFigures.rssMb) / firstFigures.rssMb) * 100, '% (target < 10)');
  report.figure('fd_growth', lastFigures.fds - firstFigures.fds, 'descriptors (target 0)');
  report.figure('unexpected_log_errors', unexpected.length, 'lines (target 0)');
  report.figure('chat_p99_last_over_first', p99(chat, last) / p99(chat, 0), 'x (target <= 1.2)');
};

export default soak;
