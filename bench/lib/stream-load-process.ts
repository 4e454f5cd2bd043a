/** A load generator in its own process: streamed requests, `concurrency` at a time, timed to the first content chunk and to the end. */
export interface LoadOrder {
  kind: 'openai' | 'ollama';
  url: string;
  count: number;
  concurrency: number;
  /** Makes each request's opening (so its conversation) unique. */
  round: string;
  /** Client i of `concurrency` sends its first request after i/concurrency of this; 0: all at once. */
  spreadMs: number;
}

export interface Sample {
  firstChunkMs: number;
  totalMs: number;
}

const bodies = {
  openai: (order: LoadOrder, index: number) => ({
    model: 'anima',
    stream: true,
    messages: [{ role: 'user', content: `${order.round} question ${index}` }],
  }),
  ollama: (order: LoadOrder, index: number) => ({ model: 'anima', messages: [{ role: 'user', content: `${order.round} question ${index}` }] }),
};
const isContent = {
  openai: (line: string) => line.startsWith('data: {') && /"content":"[^"]/.test(line),
  ollama: (line: string) => line.includes('"done":false') && !line.includes('"content":""'),
};

async function one(order: LoadOrder, index: number): Promise<Sample> {
  const started = performance.now();
  const response = await fetch(order.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(bodies[order.kind](order, index)),
  });
  if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
  const decoder = new TextDecoder();
  let buffer = '';
  let firstChunkMs = Number.NaN;
  for await (const bytes of response.body) {
    buffer += decoder.decode(bytes as Uint8Array, { stream: true });
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    if (Number.isNaN(firstChunkMs) && lines.some(isContent[order.kind])) firstChunkMs = performance.now() - started;
  }
  if (Number.isNaN(firstChunkMs)) throw new Error('no content chunk');
  return { firstChunkMs, totalMs: performance.now() - started };
}

async function run(order: LoadOrder): Promise<Sample[]> {
  const samples: Sample[] = [];
  let next = 0;
  const worker = async () => {
    while (next < order.count) samples.push(await one(order, next++));
  };
  const startOf = (client: number) => new Promise((resolve) => setTimeout(resolve, (client * order.spreadMs) / order.concurrency));
  await Promise.all(Array.from({ length: order.concurrency }, (_, client) => startOf(client).then(worker)));
  return samples;
}

process.on('message', (order: LoadOrder) => {
  run(order).then(
    (samples) => process.send?.({ samples }),
    (error: unknown) => process.send?.({ error: String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
