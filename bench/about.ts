import autocannon from 'autocannon';
import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../src/app.ts';
import { describeAbout } from '../src/system/about.ts';
import { createTestServices } from '../test/helpers/services.ts';
import type { Benchmark } from './lib/report.ts';

const ROUNDS = 3;
const SECONDS = 4;
const CONNECTIONS = 32;

async function requestsPerSecond(url: string): Promise<number> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, workers: 1 });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

/**
 * Throughput of GET /api/about (trust, rate limit, helmet and error handling on the path) against a bare
 * Fastify route that returns the same JSON, over real sockets. Rounds alternate and the best of each side
 * counts, so a noisy moment does not decide the ratio.
 */
const about: Benchmark = async (report) => {
  const harness = await createTestServices();
  const app = await buildApp(harness.services);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const sample = describeAbout(harness.services);
  const bare = Fastify();
  bare.get('/api/about', async () => sample);
  await bare.listen({ host: '127.0.0.1', port: 0 });
  const portOf = (server: { server: { address(): unknown } }) => (server.server.address() as AddressInfo).port;
  try {
    let best = { anima: 0, bare: 0 };
    for (let round = 1; round <= ROUNDS; round += 1) {
      report.progress(`round ${round}/${ROUNDS}`);
      const bareRate = await requestsPerSecond(`http://127.0.0.1:${portOf(bare)}/api/about`);
      const animaRate = await requestsPerSecond(`http://127.0.0.1:${portOf(app)}/api/about`);
      best = { anima: Math.max(best.anima, animaRate), bare: Math.max(best.bare, bareRate) };
    }
    report.figure('api_about', best.anima, 'req/s');
    report.figure('bare_route', best.bare, 'req/s');
    report.figure('ratio', best.anima / best.bare, 'x (target >= 0.8)');
  } finally {
    await bare.close();
    await app.close();
    await harness.close();
  }
};

export default about;
