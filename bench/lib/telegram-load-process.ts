import { startFakeBotApi } from '../../test/helpers/telegram-bot-api.ts';

/** Messages to send through the local Bot API server, `concurrency` conversations at a time. */
export interface TelegramOrder {
  count: number;
  concurrency: number;
  /** Makes each message's text unique across runs. */
  round: string;
}

export interface TelegramResult {
  /** From the update's arrival at the server to the bot's sendMessage for that chat, per message. */
  samples: number[];
  wallMs: number;
}

/**
 * A load generator in its own process, playing the Telegram cloud: each message comes from a new person
 * in a private chat of their own (so no per-user rate limit applies), and is timed until the bot's answer
 * reaches this server.
 */
const api = await startFakeBotApi();
process.send?.({ apiRoot: api.apiRoot, token: api.token });
let nextUser = 10_000;

async function one(order: TelegramOrder, index: number): Promise<number> {
  const user = api.user(nextUser++, 'Load');
  const chat = api.privateChat(user);
  const started = performance.now();
  api.say({ chat, from: user, text: `${order.round} question ${index}` });
  await api.waitFor('sendMessage', (call) => Number(call.params.chat_id) === chat.id && call.result !== undefined);
  return performance.now() - started;
}

async function run(order: TelegramOrder): Promise<TelegramResult> {
  await api.waitFor('getUpdates');
  const samples: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < order.count) samples.push(await one(order, next++));
  };
  await Promise.all(Array.from({ length: order.concurrency }, worker));
  // Only the figures are wanted: the recorded calls would grow with every run.
  api.calls.length = 0;
  return { samples, wallMs: performance.now() - started };
}

process.on('message', (order: TelegramOrder) => {
  run(order).then(
    (result) => process.send?.(result),
    (error: unknown) => process.send?.({ error: String(error) }),
  );
});
process.on('disconnect', () => void api.close().then(() => process.exit(0)));
