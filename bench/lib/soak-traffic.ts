import { readFile } from 'node:fs/promises';
import WebSocket from 'ws';
import { VRMA_FILE } from '../../test/helpers/upload-files.ts';

/** Latencies by the minute of the run they ended in, and the requests that failed. */
export class MinuteSamples {
  private readonly byMinute: number[][] = [];
  failures = 0;

  constructor(private readonly startedAt: number) {}

  add(ms: number): void {
    const minute = Math.floor((performance.now() - this.startedAt) / 60_000);
    const samples = this.byMinute[minute] ?? [];
    samples.push(ms);
    this.byMinute[minute] = samples;
  }

  minute(index: number): number[] {
    return this.byMinute[index] ?? [];
  }

  get count(): number {
    return this.byMinute.reduce((sum, samples) => sum + samples.length, 0);
  }
}

export interface Traffic {
  running: () => boolean;
  /** Resolves after `ms`, sooner when the run ends. */
  pause: (ms: number) => Promise<void>;
}

/**
 * One web UI window on `/ws` (each its own conversation under MULTI_SESSION). Resolves once its hello is
 * answered (the server allows only a few sockets per address to wait for theirs), with the window's chat:
 * a message every `everyMs` on average, timed from the send to the assistant's message, until the run ends.
 */
export async function openWebWindow(wsUrl: string, everyMs: number, samples: MinuteSamples, traffic: Traffic): Promise<{ chat: Promise<void> }> {
  const socket = new WebSocket(wsUrl);
  const waiting = new Map<string, { sent: number; done: () => void }>();
  let welcomed: () => void = () => undefined;
  const hello = new Promise<void>((resolve) => (welcomed = resolve));
  socket.on('message', (data: WebSocket.RawData) => {
    welcomed();
    const frame = JSON.parse(data.toString()) as { type: string; role?: string };
    if (frame.type !== 'chat_message' && frame.type !== 'chat_error') return;
    if (frame.type === 'chat_message' && frame.role !== 'assistant') return;
    // One message in flight per window: the answer (or the error) is the oldest one's.
    const [id, pending] = waiting.entries().next().value ?? [];
    if (!id || !pending) return;
    waiting.delete(id);
    if (frame.type === 'chat_message') samples.add(performance.now() - pending.sent);
    else samples.failures += 1;
    pending.done();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  socket.on('error', () => undefined);
  socket.send(JSON.stringify({ type: 'hello' }));
  await hello;
  const chat = async () => {
    // A random start spreads the windows' messages over the interval.
    await traffic.pause(Math.random() * everyMs);
    for (let index = 1; traffic.running() && socket.readyState === socket.OPEN; index += 1) {
      const id = `soak-${index}`;
      const answered = new Promise<void>((done) => waiting.set(id, { sent: performance.now(), done }));
      socket.send(JSON.stringify({ type: 'chat', id, text: `Soak message ${index}: how are you?` }));
      await Promise.race([answered, traffic.pause(60_000)]);
      if (waiting.delete(id)) samples.failures += 1;
      await traffic.pause(everyMs * (0.5 + Math.random()));
    }
    socket.close();
  };
  return { chat: chat() };
}

/** One Ollama client streaming answers back to back: the first chunk's latency is the figure. */
export async function compatStream(base: string, model: string, samples: MinuteSamples, traffic: Traffic): Promise<void> {
  for (let index = 0; traffic.running(); index += 1) {
    const sent = performance.now();
    try {
      const response = await fetch(`${base}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: `Soak stream ${index}` }] }),
      });
      if (!response.ok || !response.body) throw new Error(`status ${response.status}`);
      let first = true;
      let failed = false;
      for await (const chunk of response.body) {
        if (first) samples.add(performance.now() - sent);
        first = false;
        if (Buffer.from(chunk).toString().includes('"error"')) failed = true;
      }
      if (failed) samples.failures += 1;
    } catch {
      samples.failures += 1;
      await traffic.pause(500);
    }
  }
}

/** Animation uploads, one every `everyMs`, each removed again: staging, validation and the temp folder under load. */
export async function uploads(base: string, everyMs: number, samples: MinuteSamples, traffic: Traffic): Promise<void> {
  const file = await readFile(VRMA_FILE);
  const grant = (await (await fetch(`${base}/api/session`, { method: 'POST' })).json()) as { token: string };
  const authorization = `Bearer ${grant.token}`;
  while (traffic.running()) {
    const form = new FormData();
    form.set('state', 'idle');
    form.set('file', new Blob([file]), 'soak.vrma');
    const sent = performance.now();
    try {
      const response = await fetch(`${base}/api/animations/upload`, { method: 'POST', headers: { authorization }, body: form });
      const body = (await response.json()) as { upload_id?: string };
      if (response.status !== 201 || !body.upload_id) throw new Error(`status ${response.status}`);
      samples.add(performance.now() - sent);
      await fetch(`${base}/api/animations/uploads/${body.upload_id}`, { method: 'DELETE', headers: { authorization } });
    } catch {
      samples.failures += 1;
    }
    await traffic.pause(everyMs);
  }
}
