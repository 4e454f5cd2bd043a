import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import WebSocket, { WebSocketServer } from 'ws';
import { buildApp } from '../src/app.ts';
import { FIXTURE_SKINS } from '../test/helpers/body.ts';
import { createTestServices } from '../test/helpers/services.ts';
import { percentile, type Benchmark } from './lib/report.ts';

const CLIENTS = 1000;
const CHANGES = 50;
const WARMUP = 5;
const CONNECT_BATCH = 100;
const ARRIVAL_TIMEOUT_MS = 30_000;

type Message = { type?: string; state?: string };

/** N real `ws` clients; `arm` resolves when every one of them has received a matching message. */
class Fleet {
  private readonly sockets: WebSocket[] = [];
  private predicate: ((message: Message) => boolean) | undefined;
  private pending = 0;
  private done: ((at: number) => void) | undefined;
  private readonly seen: boolean[] = [];

  async open(url: string, count: number, hello: boolean): Promise<void> {
    for (let start = 0; start < count; start += CONNECT_BATCH) {
      const batch = Array.from({ length: Math.min(CONNECT_BATCH, count - start) }, () => this.connect(url, hello));
      await Promise.all(batch);
    }
  }

  private connect(url: string, hello: boolean): Promise<void> {
    const socket = new WebSocket(url);
    const index = this.sockets.push(socket) - 1;
    this.seen[index] = false;
    return new Promise((resolve, reject) => {
      socket.on('message', (data) => {
        const message = JSON.parse(data.toString()) as Message;
        if (message.type === 'vrm_face' || message.type === 'ready') resolve();
        if (!this.predicate || this.seen[index] || !this.predicate(message)) return;
        this.seen[index] = true;
        this.pending -= 1;
        if (this.pending === 0) this.done?.(performance.now());
      });
      socket.once('error', reject);
      socket.once('open', () => {
        if (hello) socket.send(JSON.stringify({ type: 'hello', has_assets: [] }));
        else resolve();
      });
    });
  }

  /** Starts waiting for `predicate` on every client; returns when the last one got it. */
  arm(predicate: (message: Message) => boolean): Promise<number> {
    this.predicate = predicate;
    this.pending = this.sockets.length;
    this.seen.fill(false);
    return new Promise((resolve, reject) => {
      // A lost message must fail the run, not hang it.
      const timer = setTimeout(() => reject(new Error(`${this.pending} clients got no matching message in ${ARRIVAL_TIMEOUT_MS} ms`)), ARRIVAL_TIMEOUT_MS);
      this.done = (at) => {
        clearTimeout(timer);
        resolve(at);
      };
    });
  }

  close(): void {
    for (const socket of this.sockets) socket.terminate();
  }
}

interface Side {
  fleet: Fleet;
  trigger: (index: number) => Promise<void>;
  samples: number[];
}

/** One change on one side: the time from the trigger until the last client received its message. */
async function once(side: Side, index: number, state: string): Promise<number> {
  const arrived = side.fleet.arm((message) => message.type === 'vrm_animation' && message.state === state);
  const started = performance.now();
  await side.trigger(index);
  return (await arrived) - started;
}

async function post(url: string, body: object): Promise<void> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
}

/** The floor: node:http plus a bare ws server that serialises each payload once and sends it to every client. */
async function startBare(payloads: Map<string, object>) {
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const { state } = JSON.parse(Buffer.concat(chunks).toString()) as { state: string };
      const frame = Buffer.from(JSON.stringify(payloads.get(state)));
      for (const client of wss.clients) client.send(frame, { binary: false });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"accepted":true}');
    });
  });
  const wss = new WebSocketServer({ server });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      wss.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * Fan-out latency of an animation change: from POST /api/animation_state to the last of 1,000 admitted
 * `/ws` clients receiving its vrm_animation, against a bare ws broadcast of the same payloads to the same
 * number of clients, in the same process.
 */
const fanout: Benchmark = async (report) => {
  const harness = await createTestServices({ environment: { SKINS_DIR: FIXTURE_SKINS } });
  const app = await buildApp(harness.services);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  const states = ['think', 'write'] as const;
  // The bare server sends exactly the payloads Anima broadcast, captured by a do-nothing transport.
  const payloads = new Map<string, object>();
  harness.services.body.addTransport({
    broadcastAnimation: (payload) => void payloads.set(payload.state, payload),
    broadcastAudio: () => undefined,
    broadcastFace: () => undefined,
    broadcastModel: () => undefined,
    broadcastExpression: () => undefined,
    sendToSession: () => false,
    preloadAsset: () => undefined,
    getConnectedSessions: () => [],
  });
  const bare = await startBare(payloads);
  const anima: Side = {
    fleet: new Fleet(),
    trigger: (index) => post(`http://127.0.0.1:${port}/api/animation_state`, { state: states[index % 2], context_id: 'bench' }),
    samples: [],
  };
  const floor: Side = {
    fleet: new Fleet(),
    trigger: (index) => post(`http://127.0.0.1:${bare.port}/broadcast`, { state: states[index % 2] }),
    samples: [],
  };
  try {
    report.progress(`connecting ${CLIENTS} clients to /ws (with hello) and ${CLIENTS} to the bare server`);
    await anima.fleet.open(`ws://127.0.0.1:${port}/ws`, CLIENTS, true);
    await floor.fleet.open(`ws://127.0.0.1:${bare.port}/`, CLIENTS, false);
    // The first changes (warm-up, and Anima first) also capture the payloads the bare server will send.
    report.progress(`timing ${CHANGES} changes on each side, interleaved`);
    for (let index = 0; index < WARMUP + CHANGES; index += 1) {
      const state = states[index % 2] ?? 'think';
      // Alternating which side goes first cancels what one run leaves behind for the next (garbage, buffers).
      const animaFirst = index < states.length || Math.floor(index / 2) % 2 === 0;
      const first = await once(animaFirst ? anima : floor, index, state);
      const second = await once(animaFirst ? floor : anima, index, state);
      const [animaMs, floorMs] = animaFirst ? [first, second] : [second, first];
      if (index >= WARMUP) {
        anima.samples.push(animaMs);
        floor.samples.push(floorMs);
      }
    }
    const [animaP50, animaP99] = [percentile(anima.samples, 50), percentile(anima.samples, 99)];
    const [bareP50, bareP99] = [percentile(floor.samples, 50), percentile(floor.samples, 99)];
    report.figure('anima_p50', animaP50, 'ms');
    report.figure('anima_p99', animaP99, 'ms');
    report.figure('bare_p50', bareP50, 'ms');
    report.figure('bare_p99', bareP99, 'ms');
    report.figure('ratio_p50', animaP50 / bareP50, 'x (target <= 1.15)');
    report.figure('ratio_p99', animaP99 / bareP99, 'x (target <= 1.25)');
  } finally {
    anima.fleet.close();
    floor.fleet.close();
    await bare.close();
    await app.close();
    await harness.close();
  }
};

export default fanout;
