import { startDiscordLikeServer } from '../../test/helpers/discord-like-server.ts';

/** What to measure: messages answered one at a time, or resumes after a dropped gateway connection. */
export type GatewayOrder = { kind: 'messages'; count: number; round: string } | { kind: 'resumes'; count: number };

export interface GatewayResult {
  /** Per message: from the MESSAGE_CREATE dispatch to the bot's REST reply; per resume: from the drop to the client's RESUME. */
  samples: number[];
}

/**
 * The Discord-like server in a process of its own, playing the platform: each message comes from a new
 * person in a DM of their own (so no per-user rate limit applies) and is timed until the bot's answer
 * reaches the REST side; each resume drops the bot's gateway connection and is timed until the bot
 * resumes its session, then proven live by a message answered after it.
 */
const server = await startDiscordLikeServer({ botName: 'Anima' });
process.send?.({ apiBaseUrl: server.apiBaseUrl, token: server.token });

async function answered(round: string, index: number): Promise<number> {
  const person = server.user(`Load ${index}`);
  const dm = server.dm(person);
  const path = `/channels/${dm.id}/messages`;
  const started = performance.now();
  server.say(dm, person, `${round} question ${index}`);
  await server.waitFor((request) => request.method === 'POST' && request.path === path && request.status === 200);
  return performance.now() - started;
}

async function resumed(index: number): Promise<number> {
  server.frames.length = 0;
  const started = performance.now();
  server.drop();
  await server.waitForFrame(6);
  const elapsed = performance.now() - started;
  // RESUMED goes out before this message: its answer shows the bot took the resume before the next drop.
  await answered('after-resume', index);
  return elapsed;
}

async function run(order: GatewayOrder): Promise<GatewayResult> {
  while (server.liveConnections === 0) await server.waitForFrame(1);
  const samples: number[] = [];
  for (let index = 0; index < order.count; index += 1) samples.push(order.kind === 'messages' ? await answered(order.round, index) : await resumed(index));
  // Only the figures are wanted: the recorded requests and frames would grow with every run.
  server.requests.length = 0;
  server.frames.length = 0;
  return { samples };
}

process.on('message', (order: GatewayOrder) => {
  run(order).then(
    (result) => process.send?.(result),
    (error: unknown) => process.send?.({ error: String(error) }),
  );
});
process.on('disconnect', () => void server.close().then(() => process.exit(0)));
