/**
 * `npm run chat`: chat with the running Anima from a terminal. A client of the web chat's socket (`/ws`,
 * contract "Chat over the web UI socket"), so the terminal shares the web UI's conversation, its history
 * and its operator rights (`/sleep`, `/wake`, `/status`). ANIMA_URL (default http://127.0.0.1:8001) names
 * the server; APP_API_KEY, when set, buys a session token for a server that does not trust this machine.
 */
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import WebSocket from 'ws';
import { z } from 'zod';

const EntrySchema = z.object({ id: z.string(), role: z.enum(['user', 'assistant', 'system']), username: z.string(), text: z.string() });
const FrameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('chat_history'), messages: z.array(EntrySchema), restored: z.boolean().optional() }),
  EntrySchema.extend({ type: z.literal('chat_message') }),
  z.object({ type: z.literal('typing'), active: z.boolean() }),
  z.object({ type: z.literal('chat_error'), message: z.string() }),
]);
type Entry = z.infer<typeof EntrySchema>;

const baseUrl = new URL(process.env.ANIMA_URL ?? 'http://127.0.0.1:8001');
const apiKey = process.env.APP_API_KEY?.trim() ?? '';
const TYPING_LINE = 'Anima is typing…';

/** A session token from `POST /api/session` when a key is given; a loopback client needs none. */
async function sessionToken(): Promise<string | undefined> {
  if (apiKey === '') return undefined;
  const response = await fetch(new URL('/api/session', baseUrl), { method: 'POST', headers: { authorization: `Bearer ${apiKey}` } });
  if (!response.ok) throw new Error(`POST /api/session answered ${response.status}`);
  return z.object({ token: z.string() }).parse(await response.json()).token;
}

/** `You: …`, `Anima: …`, and the server's own notices (attention commands) as `* …`. */
const lineOf = (entry: Entry) => (entry.role === 'system' ? `* ${entry.text}` : `${entry.role === 'assistant' ? 'Anima' : 'You'}: ${entry.text}`);

async function main(): Promise<void> {
  const token = await sessionToken();
  const socketUrl = new URL('/ws', baseUrl);
  socketUrl.protocol = baseUrl.protocol === 'https:' ? 'wss:' : 'ws:';
  const socket = new WebSocket(socketUrl);
  const terminal = createInterface({ input: process.stdin, output: process.stdout, prompt: '> ' });
  /** Ids of what this terminal sent: their echo is already on screen as typed. */
  const sent = new Set<string>();
  let typing = false;
  let leaving = false;

  /** Prints above the prompt, keeping what the user is typing. */
  const print = (line: string) => {
    process.stdout.write('\r\x1b[K');
    console.log(line);
    terminal.prompt(true);
  };
  const show = (entry: Entry) => {
    if (entry.role === 'user' && sent.delete(entry.id)) return;
    print(lineOf(entry));
  };

  const leave = (code: number) => {
    leaving = true;
    terminal.close();
    socket.close(1000);
    process.exitCode = code;
  };

  socket.on('open', () => socket.send(JSON.stringify({ type: 'hello', ...(token ? { token } : {}) })));
  socket.on('message', (data) => {
    let json: unknown;
    try {
      json = JSON.parse(String(data));
    } catch {
      return;
    }
    const frame = FrameSchema.safeParse(json);
    if (!frame.success) return; // the body's frames (animation, face, speech) are the browser's business
    const message = frame.data;
    if (message.type === 'chat_history') {
      // A restore or an archive replaces the conversation: it is shown again from its start.
      if (message.restored !== undefined) print('* The conversation was replaced (an archive was restored or made):');
      for (const entry of message.messages) show(entry);
      if (message.restored === undefined) print(`Connected to ${baseUrl.origin}. Type a message; /sleep, /wake, /status; Ctrl-C leaves.`);
    } else if (message.type === 'chat_message') show(message);
    else if (message.type === 'chat_error') print(`! ${message.message}`);
    else if (message.active !== typing) {
      typing = message.active;
      if (typing) print(TYPING_LINE);
    }
  });
  socket.on('close', (code) => {
    if (leaving) return;
    console.log(`\nDisconnected by the server (${code}).`);
    leave(1);
  });
  socket.on('error', (error) => {
    if (leaving) return;
    console.error(`Cannot reach Anima at ${baseUrl.origin}: ${error.message}`);
    leave(1);
  });

  terminal.on('line', (line) => {
    const text = line.trim();
    if (text !== '' && socket.readyState === WebSocket.OPEN) {
      const id = randomUUID();
      sent.add(id);
      socket.send(JSON.stringify({ type: 'chat', text, id }));
    }
    terminal.prompt();
  });
  // Ctrl-C (and Ctrl-D) leave with a normal close, so the server ends the session at once.
  terminal.on('SIGINT', () => {
    console.log('\nBye.');
    leave(0);
  });
  terminal.on('close', () => {
    if (!leaving) leave(0);
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
