import { Agent, createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveFromChild } from './child-process.ts';

/**
 * The floor of a relay: a bare Node server that turns an Ollama `/api/chat` request into a streamed
 * OpenAI request to the model server (argument 1, its base URL) and each content chunk of the answer
 * into an Ollama NDJSON line, with nothing else (no checks, history, prompt or body), in a process of its own.
 */
const target = new URL(`${process.argv[2] ?? 'http://127.0.0.1:1'}/chat/completions`);
const agent = new Agent({ keepAlive: true });

const ndjsonLine = (model: string, content: string, done: boolean) =>
  `${JSON.stringify({ model, created_at: new Date().toISOString(), message: { role: 'assistant', content }, done })}\n`;

/** Each `data:` event of the model's answer with content becomes a line; its end, the final line. */
function relayAnswer(model: string, answer: IncomingMessage, outgoing: ServerResponse): void {
  outgoing.writeHead(200, { 'content-type': 'application/x-ndjson' });
  let pending = '';
  answer.setEncoding('utf8');
  answer.on('data', (part: string) => {
    const lines = (pending + part).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('data: {')) continue;
      const content = (JSON.parse(line.slice('data: '.length)) as { choices: { delta?: { content?: string } }[] }).choices[0]?.delta?.content;
      if (content) outgoing.write(ndjsonLine(model, content, false));
    }
  });
  answer.on('end', () => outgoing.end(ndjsonLine(model, '', true)));
}

const server = createServer((incoming, outgoing) => {
  let text = '';
  incoming.setEncoding('utf8');
  incoming.on('data', (part: string) => (text += part));
  incoming.on('end', () => {
    const { model, messages } = JSON.parse(text) as { model: string; messages: unknown[] };
    const body = JSON.stringify({ model, messages, stream: true });
    const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    request(target, { method: 'POST', agent, headers }, (answer) => relayAnswer(model, answer, outgoing)).end(body);
  });
});
server.listen(0, '127.0.0.1', () => serveFromChild((server.address() as AddressInfo).port, () => new Promise((resolve) => server.close(() => resolve()))));
