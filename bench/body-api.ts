import autocannon from 'autocannon';
import { startServer, type ChildServer } from './lib/child-process.ts';
import type { Benchmark } from './lib/report.ts';

const PATH = '/api/body/state';
const ROUNDS = 5;
const SECONDS = 3;
const CONNECTIONS = 50;
/** What Fastify (or Node) writes on every answer, the bare route's included. */
const FASTIFY_HEADERS = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);

interface Run {
  /** Requests per second. */
  rate: number;
  /** The server's CPU time per request, in microseconds: what a request costs, however busy the machine. */
  cpu: number;
}

/** `CONNECTIONS` keep-alive connections for `SECONDS`; every answer must have `status`. */
async function load(server: ChildServer, status: 200 | 304, headers: Record<string, string> = {}): Promise<Run> {
  const url = `http://127.0.0.1:${server.port}${PATH}`;
  const before = await server.cpuMicros();
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers, workers: 1 });
  const cpu = (await server.cpuMicros()) - before;
  const answered = result.statusCodeStats?.[`${status}`]?.count ?? 0;
  if (result.errors > 0 || answered !== result.requests.total) {
    throw new Error(`${url}: ${result.errors} errors, ${result.requests.total - answered} answers other than ${status}`);
  }
  return { rate: result.requests.average, cpu: cpu / result.requests.total };
}

/**
 * What a desktop companion's poll costs: GET /api/body/state (rate limit, trust, security headers and the
 * app's other hooks on the path) against the floor, a bare Fastify route answering the same JSON text,
 * each server in a process of its own and the load (autocannon, 50 connections) in this one; and the same
 * poll with `If-None-Match`, which a poller sends once it holds the state. A second floor, the bare route
 * sending the headers the body route sends beyond Fastify's own (security, ETag, cache), shows what those
 * headers cost by themselves (`ratio_same_headers`). Rounds alternate which side
 * goes first and the best of each side counts, so a noisy moment does not decide the ratio; the servers'
 * CPU time per request is printed too, steadier than throughput on a machine that is busy with others.
 */
const bodyApi: Benchmark = async (report) => {
  const servers: ChildServer[] = [];
  try {
    const anima = await startServer(new URL('./lib/anima-web-process.ts', import.meta.url));
    servers.push(anima);
    const first = await fetch(`http://127.0.0.1:${anima.port}${PATH}`);
    const json = await first.text();
    const etag = first.headers.get('etag');
    if (!etag) throw new Error(`${PATH} sent no ETag`);
    const bareProcess = new URL('./lib/bare-route-process.ts', import.meta.url);
    const bare = await startServer(bareProcess, [PATH, json]);
    servers.push(bare);
    // The same route sending the headers the body route sends beyond Fastify's own: what they cost alone.
    const sent = Object.fromEntries([...first.headers].filter(([name]) => !FASTIFY_HEADERS.has(name)));
    const bareSameHeaders = await startServer(bareProcess, [PATH, json, JSON.stringify(sent)]);
    servers.push(bareSameHeaders);
    report.progress(`state: ${json.length} bytes, ETag ${etag}; headers beyond Fastify's own: ${Object.keys(sent).join(', ')}`);
    const sides = {
      anima: () => load(anima, 200),
      bare: () => load(bare, 200),
      bareSameHeaders: () => load(bareSameHeaders, 200),
      notModified: () => load(anima, 304, { 'if-none-match': etag }),
    };
    const best = Object.fromEntries(Object.keys(sides).map((side) => [side, { rate: 0, cpu: Infinity }])) as Record<keyof typeof sides, Run>;
    for (let round = 1; round <= ROUNDS; round += 1) {
      report.progress(`round ${round}/${ROUNDS}`);
      // Each side goes first in turn, so what one run leaves behind (garbage, a busy neighbour) evens out.
      const order =
        round % 2 === 1 ? (['bare', 'anima', 'bareSameHeaders', 'notModified'] as const) : (['notModified', 'bareSameHeaders', 'anima', 'bare'] as const);
      for (const side of order) {
        const run = await sides[side]();
        best[side] = { rate: Math.max(best[side].rate, run.rate), cpu: Math.min(best[side].cpu, run.cpu) };
      }
    }
    report.figure('body_state', best.anima.rate, 'req/s');
    report.figure('body_state_not_modified', best.notModified.rate, 'req/s');
    report.figure('bare_route', best.bare.rate, 'req/s');
    report.figure('body_state_cpu', best.anima.cpu, 'us/req');
    report.figure('body_state_not_modified_cpu', best.notModified.cpu, 'us/req');
    report.figure('bare_route_cpu', best.bare.cpu, 'us/req');
    report.figure('bare_route_same_headers', best.bareSameHeaders.rate, 'req/s');
    report.figure('bare_route_same_headers_cpu', best.bareSameHeaders.cpu, 'us/req');
    report.figure('ratio_same_headers', best.anima.rate / best.bareSameHeaders.rate, 'x');
    report.figure('ratio', best.anima.rate / best.bare.rate, 'x (target >= 1.0)');
  } finally {
    for (const server of servers) server.stop();
  }
};

export default bodyApi;
