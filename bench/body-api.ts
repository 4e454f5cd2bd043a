import autocannon from 'autocannon';
import { startServer, type ChildServer } from './lib/child-process.ts';
import { percentile, type Benchmark } from './lib/report.ts';

const PATH = '/api/body/state';
const ROUNDS = 8;
const SECONDS = 2;
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
  return { rate: result.requests.total / result.duration, cpu: cpu / result.requests.total };
}

/**
 * What a desktop companion's poll costs: GET /api/body/state (rate limit, trust, security headers and the
 * app's other hooks on the path) against the floor, a bare Fastify route answering the same JSON text,
 * each server in a process of its own and the load (autocannon, 50 connections) in this one; and the same
 * poll with `If-None-Match`, which a poller sends once it holds the state. A second floor, the bare route
 * sending the headers the body route sends beyond Fastify's own (security, ETag, cache), shows what those
 * headers cost by themselves (`ratio_same_headers`). Each round loads every side once, for a short while,
 * alternating which goes first; a ratio is the median of the rounds' own ratios, so the machine's drift
 * (two loads of one server a minute apart differ by more than the target here) falls on both sides of
 * each. Rates and the servers' CPU time per request are the medians of the rounds.
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
    const runs = Object.fromEntries(Object.keys(sides).map((side) => [side, [] as Run[]])) as Record<keyof typeof sides, Run[]>;
    for (let round = 1; round <= ROUNDS; round += 1) {
      report.progress(`round ${round}/${ROUNDS}`);
      // Each side goes first in turn, so what one run leaves behind (garbage, a busy neighbour) evens out.
      const order =
        round % 2 === 1 ? (['bare', 'anima', 'bareSameHeaders', 'notModified'] as const) : (['notModified', 'bareSameHeaders', 'anima', 'bare'] as const);
      for (const side of order) runs[side].push(await sides[side]());
    }
    const median = (values: number[]) => percentile(values, 50);
    const rate = (side: keyof typeof sides) => median(runs[side].map((run) => run.rate));
    const cpu = (side: keyof typeof sides) => median(runs[side].map((run) => run.cpu));
    /** The median of each round's ratio of `side` to `floor`: both measured within seconds of each other. */
    const ratio = (side: keyof typeof sides, floor: keyof typeof sides) => median(runs[side].map((run, round) => run.rate / (runs[floor][round] as Run).rate));
    report.figure('body_state', rate('anima'), 'req/s');
    report.figure('body_state_not_modified', rate('notModified'), 'req/s');
    report.figure('bare_route', rate('bare'), 'req/s');
    report.figure('body_state_cpu', cpu('anima'), 'us/req');
    report.figure('body_state_not_modified_cpu', cpu('notModified'), 'us/req');
    report.figure('bare_route_cpu', cpu('bare'), 'us/req');
    report.figure('bare_route_same_headers', rate('bareSameHeaders'), 'req/s');
    report.figure('bare_route_same_headers_cpu', cpu('bareSameHeaders'), 'us/req');
    // The former method, each side's best round against the other's, printed beside.
    const best = (side: keyof typeof sides) => Math.max(...runs[side].map((run) => run.rate));
    report.figure('best_round_ratio', best('anima') / best('bare'), 'x');
    report.figure('ratio_not_modified', ratio('notModified', 'bare'), 'x');
    report.figure('ratio_same_headers', ratio('anima', 'bareSameHeaders'), 'x');
    report.figure('ratio', ratio('anima', 'bare'), 'x (target >= 1.0)');
  } finally {
    for (const server of servers) server.stop();
  }
};

export default bodyApi;
