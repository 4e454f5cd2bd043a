import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { isWav } from '../../src/audio/wav.ts';
import { pcmFrames, spokenPcm } from '../helpers/audio.ts';
import { useTestApp } from '../helpers/services.ts';

interface LiveClient {
  socket: WebSocket;
  events: Array<Record<string, unknown>>;
  binary: Buffer[];
  closed: Promise<number>;
  next(predicate: (event: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
}

/** A real client that keeps JSON events and binary frames apart; listeners attached before open. */
async function connect(url: string): Promise<LiveClient> {
  const socket = new WebSocket(url);
  const events: Array<Record<string, unknown>> = [];
  const binary: Buffer[] = [];
  const waiters: Array<{ predicate: (event: Record<string, unknown>) => boolean; resolve: (event: Record<string, unknown>) => void }> = [];
  socket.on('message', (data: Buffer, isBinary: boolean) => {
    if (isBinary) return void binary.push(data);
    const event = JSON.parse(data.toString()) as Record<string, unknown>;
    events.push(event);
    for (const waiter of [...waiters]) if (waiter.predicate(event)) waiters.splice(waiters.indexOf(waiter), 1) && waiter.resolve(event);
  });
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => socket.once('open', () => resolve()).once('error', reject));
  return {
    socket,
    events,
    binary,
    closed,
    next(predicate, timeoutMs = 10_000) {
      const found = events.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching event in time; got ${JSON.stringify(events)}`)), timeoutMs);
        waiters.push({
          predicate,
          resolve: (event) => {
            clearTimeout(timer);
            resolve(event);
          },
        });
      });
    },
  };
}

const PHRASES = ['turn on the kitchen light', 'good morning', 'what time is it'];

describe('WS /api/audio/stream', () => {
  const subject = useTestApp({ startInTest: true, listen: true, environment: { LIVE_CORTEX: 'vad' }, helloTimeoutMs: 1000 });
  let clients: LiveClient[] = [];
  let url = '';

  async function start(environment: Record<string, string> = {}) {
    await subject.start({ environment });
    url = `ws://127.0.0.1:${subject.ports.web}/api/audio/stream`;
  }

  async function open(config: unknown = { sample_rate: 16000, engine: 'vad' }) {
    const client = await connect(url);
    clients.push(client);
    client.socket.send(JSON.stringify({ type: 'hello' }));
    client.socket.send(typeof config === 'string' ? config : JSON.stringify(config));
    return client;
  }

  /** Speech from the local engine at 16 kHz, then `silenceS` of silence, in 20 ms chunks. */
  const speechPcm = async (text: string, silenceS = 1) => pcmFrames(await spokenPcm(subject.harness.services.audio, text, silenceS));

  afterEach(() => {
    for (const { socket } of clients) socket.terminate();
    clients = [];
  });

  it('emits speech_start then speech_end for synthesised speech followed by silence', async () => {
    await start();
    const client = await open();
    await client.next((event) => event.type === 'ready');
    for (const chunk of await speechPcm('Hello there, this is a voice activity test.')) client.socket.send(chunk);
    await client.next((event) => event.type === 'vad' && event.signal === 'speech_end');
    const signals = client.events.filter((event) => event.type === 'vad').map((event) => event.signal);
    expect(signals[0]).toBe('speech_start');
    expect(signals.at(-1)).toBe('speech_end');
    expect(signals.filter((signal) => signal === 'speech_start').length).toBe(signals.filter((signal) => signal === 'speech_end').length);
  });

  it('turns an utterance into a final transcript that enters the chain, and answers with audio on the same socket', async () => {
    await start({ ACTIVE_AURIS_ENGINE: 'pocketsphinx', AURIS_ENGINE_SETTINGS: JSON.stringify({ phrases: PHRASES }) });
    const client = await open();
    const ready = await client.next((event) => event.type === 'ready');
    for (const chunk of await speechPcm('Turn on the kitchen light.')) client.socket.send(chunk);
    // pocketsphinx (with ffmpeg before it) starts processes per utterance: slow on a loaded machine.
    const final = await client.next((event) => event.type === 'final', 90_000);
    expect(final.text).toBe('turn on the kitchen light');
    // No language model is configured in tests: the chain answers with its notice, spoken back here.
    const audio = await client.next((event) => event.type === 'audio', 15_000);
    expect(String(audio.text)).toMatch(/no language model/i);
    await expect.poll(() => client.binary.length).toBeGreaterThan(0);
    expect(isWav(client.binary[0] as Buffer)).toBe(true);
    const history = await subject.harness.services.history.chat.load(`live/${String(ready.session_id)}`);
    expect(history.map((message: { text: string }) => message.text)).toContain('turn on the kitchen light');
  }, 180_000);

  it('answers a bad config frame with an error event and closes with 4400', async () => {
    await start();
    for (const config of ['{"sample_rate": "fast"}', 'not json', { sample_rate: 16000, engine: 'nope' }, { sample_rate: 100 }]) {
      const client = await open(config);
      expect(await client.closed).toBe(4400);
      expect(client.events).toEqual([{ type: 'error', detail: expect.any(String) }]);
    }
  });

  it('closes with 4400 when audio comes before the config frame, or Live is disabled', async () => {
    await start({ LIVE_CORTEX: 'disabled' });
    const early = await connect(url);
    clients.push(early);
    early.socket.send(JSON.stringify({ type: 'hello' }));
    early.socket.send(Buffer.alloc(640));
    expect(await early.closed).toBe(4400);
    const disabled = await open({ sample_rate: 16000 });
    expect(await disabled.closed).toBe(4400);
    expect(disabled.events[0]).toEqual({ type: 'error', detail: 'Live is disabled (LIVE_CORTEX)' });
  });

  it('closes a socket that sends garbage, and one that floods audio', async () => {
    await start();
    const garbage = await open();
    await garbage.next((event) => event.type === 'ready');
    for (const frame of ['hello?', 'more text', 'still text']) garbage.socket.send(frame);
    expect(await garbage.closed).toBe(1008);
    expect(garbage.events.filter((event) => event.type === 'error').length).toBe(3);

    const flood = await open();
    await flood.next((event) => event.type === 'ready');
    const second = Buffer.alloc(32_000);
    for (let i = 0; i < 40 && flood.socket.readyState === WebSocket.OPEN; i += 1) flood.socket.send(second);
    expect(await flood.closed).toBe(1008);
  });

  it('requires the hello first', async () => {
    await start();
    const client = await connect(url);
    clients.push(client);
    client.socket.send(JSON.stringify({ sample_rate: 16000 }));
    expect(await client.closed).toBe(4401);
  });
});
