import { Writable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { Ollama } from 'ollama';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ENGINE_ERROR_NOTICE } from '../../src/chain/message-chain.ts';
import { FIXTURE_SKINS } from '../helpers/body.ts';
import { shippedRoots } from '../helpers/component-roots.ts';
import { startFakeOpenAi, type FakeOpenAi, type RecordedRequest, type Scripted } from '../helpers/openai-server.ts';
import { ManualClock } from '../helpers/manual-clock.ts';
import { useTestApp } from '../helpers/services.ts';
import { openSocket, type OpenedSocket } from '../helpers/sockets.ts';
import { freePort } from '../helpers/free-port.ts';

/**
 * Issue 15, fault 3: the model server misbehaves for real (a local OpenAI-compatible server over real
 * sockets, the shipped `cortex/openai` engine unchanged). Each fault must end in a notice to the user
 * within CORTEX_TIMEOUT_S, the body back at idle, and the next message of the same conversation answered.
 * The chain's deadline and the engine's timers run on the test's clock: once the fault is reached, the
 * clock passes CORTEX_TIMEOUT_S, and the next message (its deadline never passed) is answered.
 */

type Message = { type: string; [key: string]: unknown };
const ofType = (type: string) => (message: unknown) => (message as Message).type === type;
const DEADLINE_MS = 500;
const DEADLINE = /no complete answer within 0.5 s \(CORTEX_TIMEOUT_S\)/;
const REPLY = 'Hello from the fake model.';
const PARTIAL = 'Half an ans';

interface Fault {
  name: string;
  answer: Scripted;
  /** The cause the chain logs with the engine's failure. */
  cause: RegExp;
  /** Part of a reply reaches a streaming client before the failure. */
  partial?: boolean;
}

/** The faults that end only by the chain's deadline (the others end by themselves). */
const waitsForDeadline = (fault: Fault) => fault.cause === DEADLINE;

const FAULTS: Fault[] = [
  { name: 'hangs before the first token (no headers)', answer: { kind: 'hang' }, cause: DEADLINE },
  { name: 'hangs after its headers, before the first token', answer: { kind: 'stall', text: '' }, cause: DEADLINE },
  {
    name: 'stops mid-stream and drops the connection',
    answer: { kind: 'cut', text: PARTIAL },
    cause: /closed before it ended|aborted|socket hang up/,
    partial: true,
  },
  { name: 'stops mid-stream and sends nothing more', answer: { kind: 'stall', text: PARTIAL }, cause: DEADLINE, partial: true },
  // Retried like a network failure (no words came yet); the backoff between the tries outlasts the deadline.
  { name: 'sends malformed SSE', answer: { kind: 'raw', body: 'data: {"choices": [{"delta": {"content": "x"\n\n' }, cause: DEADLINE },
  // Retry-After 30 s: the engine would wait, the chain's deadline does not.
  { name: 'answers 429 with Retry-After', answer: { kind: 'status', status: 429, retryAfter: 30 }, cause: DEADLINE },
  // Retried at once (Retry-After 0) until OPENAI_MAX_RETRIES runs out.
  { name: 'answers 500', answer: { kind: 'status', status: 500, retryAfter: 0 }, cause: /The server had an error/ },
];

/** The log lines (JSON) written so far. */
function logSink() {
  const lines: Array<{ msg?: string; err?: { message?: string } }> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line));
      done();
    },
  });
  const engineFailures = () => lines.filter((line) => line.msg?.startsWith('the Cortex engine failed')).map((line) => line.err?.message ?? '');
  return { destination, engineFailures, clear: () => void lines.splice(0) };
}

describe('the model server misbehaves', () => {
  let fake: FakeOpenAi;
  const logs = logSink();
  const subject = useTestApp({
    startInTest: true,
    listen: true,
    compat: true,
    componentRoots: shippedRoots,
    logLevel: 'error',
    logDestination: logs.destination,
    // OPENAI_TIMEOUT_S stays at its 60 s: only the chain's deadline can end a hang within this test.
    environment: { SKINS_DIR: FIXTURE_SKINS, CORTEX_ENGINE: 'openai', OPENAI_MODEL: 'gpt-test', CORTEX_TIMEOUT_S: '0.5', OPENAI_MAX_RETRIES: '2' },
  });
  let sockets: OpenedSocket[] = [];
  let clock: ManualClock;
  /** A fresh app on a fresh clock. */
  const start = (environment: Record<string, string>) => {
    clock = new ManualClock();
    return subject.start({ clock, environment });
  };

  /** Asks carrying `marker` get the fault; every other ask is answered normally. */
  const faultFor = (marker: string, answer: Scripted) => (request: RecordedRequest) =>
    request.body.messages?.at(-1)?.content.includes(marker) ? answer : undefined;

  const settled = async () => {
    while (subject.harness.services.chain.pending > 0) await delay(5);
  };

  const reachedFault = () => fake.requests.some((request) => request.body.messages?.at(-1)?.content.includes('FAULT'));

  /** Once `reached` holds (the engine was asked, so CORTEX_TIMEOUT_S is armed), the clock passes that deadline. */
  const passDeadline = async (reached: () => boolean) => {
    await vi.waitFor(() => expect(reached()).toBe(true), { timeout: 10_000 });
    clock.advance(DEADLINE_MS);
  };

  /** With no request to see (a refused connection), the clock passes deadline after deadline until `done`. */
  const passDeadlinesUntil = (done: () => boolean) =>
    vi.waitFor(
      () => {
        clock.advance(DEADLINE_MS);
        expect(done()).toBe(true);
      },
      { timeout: 10_000, interval: 20 },
    );

  const expectIdleBody = () => {
    const animation = subject.harness.services.body.getAnimation();
    expect(animation.contexts).toEqual([]);
    expect(animation.state).toBe('idle');
  };

  async function webWindow(): Promise<OpenedSocket> {
    const opened = await openSocket(`ws://127.0.0.1:${subject.ports.web}/ws`);
    sockets.push(opened);
    opened.socket.send(JSON.stringify({ type: 'hello', has_assets: [] }));
    await opened.next(ofType('chat_history'));
    return opened;
  }

  beforeAll(async () => {
    fake = await startFakeOpenAi();
  });
  afterAll(async () => fake?.close());
  afterEach(() => {
    for (const { socket } of sockets) socket.terminate();
    sockets = [];
    fake.reset();
    logs.clear();
  });

  describe('through the web chat (WS /ws)', () => {
    it.each(FAULTS)('$name: a chat_error notice, the body idles, the next message is answered', async (fault) => {
      await start({ OPENAI_BASE_URL: fake.baseUrl });
      fake.answerFor = faultFor('FAULT', fault.answer);
      const window = await webWindow();
      // Both at once: the second waits in the conversation's queue behind the one that meets the fault.
      window.socket.send(JSON.stringify({ type: 'chat', text: 'FAULT please', id: 'first' }));
      window.socket.send(JSON.stringify({ type: 'chat', text: 'and now?', id: 'second' }));
      const streamed = () =>
        window.messages
          .filter(ofType('chat_delta'))
          .map((message) => (message as Message).text)
          .join('');
      if (waitsForDeadline(fault)) await passDeadline(() => reachedFault() && (!fault.partial || streamed().includes(PARTIAL)));
      await window.next((message) => ofType('chat_message')(message) && (message as Message).role === 'assistant', 15_000);
      await window.next((message) => ofType('typing')(message) && (message as Message).active === false, 15_000);
      const outcomes = window.messages
        .filter((message) => ofType('chat_error')(message) || (ofType('chat_message')(message) && (message as Message).role === 'assistant'))
        .map((message) => (message as Message).message ?? (message as Message).text);
      expect(outcomes).toEqual([ENGINE_ERROR_NOTICE, REPLY]);
      await settled();
      expectIdleBody();
      expect(logs.engineFailures()).toEqual([expect.stringMatching(fault.cause)]);
    });

    it('refuses connections: each message gets the notice, and once the server is back the next is answered', async () => {
      await start({ OPENAI_BASE_URL: `http://127.0.0.1:${await freePort()}/v1` });
      const window = await webWindow();
      window.socket.send(JSON.stringify({ type: 'chat', text: 'anyone there?', id: 'first' }));
      window.socket.send(JSON.stringify({ type: 'chat', text: 'hello?', id: 'second' }));
      const errors = () => window.messages.filter(ofType('chat_error'));
      await passDeadlinesUntil(() => errors().length === 2);
      expect(errors()).toEqual([
        { type: 'chat_error', message: ENGINE_ERROR_NOTICE },
        { type: 'chat_error', message: ENGINE_ERROR_NOTICE },
      ]);
      await settled();
      expectIdleBody();
      expect(logs.engineFailures()).toEqual([expect.stringMatching(DEADLINE), expect.stringMatching(DEADLINE)]);
      await subject.harness.services.config.set('OPENAI_BASE_URL', fake.baseUrl);
      window.socket.send(JSON.stringify({ type: 'chat', text: 'back?', id: 'third' }));
      await window.next((message) => ofType('chat_message')(message) && (message as Message).text === REPLY, 15_000);
      await settled();
      expectIdleBody();
    });
  });

  describe('through the compat port with the official ollama client', () => {
    /** One streamed chat: the text that came, and the error the client raised (a clear one, or none). */
    const streamedChat = async (client: Ollama, content: string, onText?: (text: string) => void) => {
      let text = '';
      try {
        for await (const chunk of await client.chat({ model: 'anima', messages: [{ role: 'user', content }], stream: true })) {
          text += chunk.message.content;
          onText?.(text);
        }
        return { text };
      } catch (error) {
        return { text, error: (error as Error).message };
      }
    };
    const clientFor = () => new Ollama({ host: `http://127.0.0.1:${subject.ports.compat}`, headers: { 'x-anima-conversation': 'faults' } });

    it.each(FAULTS)('$name: the notice reaches the client, the body idles, the next request is answered', async (fault) => {
      await start({ OPENAI_BASE_URL: fake.baseUrl });
      fake.answerFor = faultFor('FAULT', fault.answer);
      const client = clientFor();
      let streamed = '';
      // One conversation: the second request waits in its queue behind the first.
      const onText = (text: string) => {
        streamed = text;
      };
      const asked = Promise.all([streamedChat(client, 'FAULT please', onText), streamedChat(client, 'and now?')]);
      if (waitsForDeadline(fault)) await passDeadline(() => reachedFault() && (!fault.partial || streamed.includes(PARTIAL)));
      const [first, second] = await asked;
      // A notice that cannot follow the words already streamed comes as the stream's error, which the client raises.
      expect(first).toEqual(fault.partial ? { text: PARTIAL, error: ENGINE_ERROR_NOTICE } : { text: ENGINE_ERROR_NOTICE });
      expect(second).toEqual({ text: REPLY });
      await settled();
      expectIdleBody();
      expect(logs.engineFailures()).toEqual([expect.stringMatching(fault.cause)]);
    });

    it('refuses connections: the notice, then an answer once the server is back', async () => {
      await start({ OPENAI_BASE_URL: `http://127.0.0.1:${await freePort()}/v1` });
      const client = clientFor();
      let refused: Awaited<ReturnType<typeof streamedChat>> | undefined;
      void streamedChat(client, 'anyone there?').then((outcome) => {
        refused = outcome;
      });
      await passDeadlinesUntil(() => refused !== undefined);
      expect(refused).toEqual({ text: ENGINE_ERROR_NOTICE });
      await settled();
      expectIdleBody();
      await subject.harness.services.config.set('OPENAI_BASE_URL', fake.baseUrl);
      expect(await streamedChat(client, 'back?')).toEqual({ text: REPLY });
      await settled();
      expectIdleBody();
    });
  });
});
