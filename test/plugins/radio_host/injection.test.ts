import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { type BanterAudio, injectBanter, PRIME_SHORT_S, prepareBanterAudio, WebcastError } from '../../../plugins/radio_host/injection/index.ts';
import { bytesDue, PACING_TICK_MS } from '../../../plugins/radio_host/injection/pacing.ts';
import { VERDICT_MIN_MS } from '../../../plugins/radio_host/injection/webcast-client.ts';
import { toneWav } from '../../helpers/audio.ts';
import { ManualClock } from '../../helpers/manual-clock.ts';

/** What a webcast server saw: text frames parsed, binary frames by length, and the close. */
type Seen = { text: { type: string; data: Record<string, unknown> } } | { binary: number; at: number } | { closed: number };

/**
 * A web broadcaster that behaves as Liquidsoap's harbor was seen to (platform notes): it never answers,
 * closes with 1011 on a wrong password, and drops the connection when the mount is taken.
 */
class WebcastServer {
  readonly seen: Seen[] = [];
  /** `late_password`: the 1011 comes only after the first audio, as from a harbor slower than the verdict window. */
  refuse: 'none' | 'password' | 'late_password' | 'mount_taken' = 'none';
  private readonly server: WebSocketServer;
  private waiters: Array<() => void> = [];
  private open = 0;

  constructor(private readonly clock: ManualClock) {
    this.server = new WebSocketServer({ port: 0, host: '127.0.0.1', handleProtocols: (protocols) => (protocols.has('webcast') ? 'webcast' : false) });
    this.server.on('connection', (socket) => {
      this.open += 1;
      socket.on('message', (data: Buffer, isBinary) => {
        if (isBinary) {
          if (this.refuse === 'late_password') socket.close(1011, 'Authentication failed.');
          return this.push({ binary: data.length, at: this.clock.now() });
        }
        const frame = JSON.parse(data.toString()) as { type: string; data: Record<string, unknown> };
        this.push({ text: frame });
        if (frame.type !== 'hello') return;
        if (this.refuse === 'password') socket.close(1011, 'Authentication failed.');
        if (this.refuse === 'mount_taken') socket.terminate();
      });
      socket.on('close', (code) => {
        this.open -= 1;
        this.push({ closed: code });
      });
    });
  }

  get url(): string {
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}/`;
  }

  async listening(): Promise<void> {
    if (!this.server.address()) await once(this.server, 'listening');
  }

  /** Resolves once `count` frames or closes have been seen in all. */
  async until(count: number): Promise<Seen> {
    while (this.seen.length < count) await this.change();
    return this.seen[count - 1] as Seen;
  }

  /** Forgets what was seen once every connection so far has closed, so nothing late reaches the next test. */
  async reset(): Promise<void> {
    while (this.open > 0) await this.change();
    this.seen.length = 0;
    this.refuse = 'none';
  }

  /** The close code, once the connection is closed. */
  async closed(): Promise<number> {
    for (;;) {
      const entry = this.seen.find((seen) => 'closed' in seen);
      if (entry && 'closed' in entry) return entry.closed;
      await this.change();
    }
  }

  private change(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  close(): Promise<void> {
    for (const client of this.server.clients) client.terminate();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private push(entry: Seen): void {
    this.seen.push(entry);
    for (const wake of this.waiters.splice(0)) wake();
  }
}

const binaryFrames = (seen: Seen[]) => seen.filter((entry): entry is { binary: number; at: number } => 'binary' in entry);

let folder: string;
let eightSeconds: string;
let audio: BanterAudio;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'anima-injection-'));
  eightSeconds = join(folder, 'eight.wav');
  await writeFile(eightSeconds, toneWav(8));
  audio = await prepareBanterAudio({ wavPath: eightSeconds, gainDb: 0 });
});
afterAll(() => rm(folder, { recursive: true, force: true }));

describe('prepareBanterAudio', () => {
  it('encodes WebM/Opus with a tail of silence, and pads a clip shorter than the harbor buffer', async () => {
    expect(audio.bytes.subarray(0, 4)).toEqual(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]));
    expect(audio.durationS).toBeCloseTo(8.25, 2);
    expect(audio.leadS).toBe(5.5);
    const short = join(folder, 'short.wav');
    await writeFile(short, toneWav(2));
    expect((await prepareBanterAudio({ wavPath: short, gainDb: 4 })).durationS).toBe(5.5);
    expect((await prepareBanterAudio({ wavPath: short, gainDb: 4, bufferS: 8 })).durationS).toBe(8.5);
  });

  it('reports audio ffmpeg cannot read as an encode error', async () => {
    const notAudio = join(folder, 'not-audio.wav');
    await writeFile(notAudio, 'plain text');
    await expect(prepareBanterAudio({ wavPath: notAudio, gainDb: 0 })).rejects.toMatchObject({ name: 'WebcastError', kind: 'encode' });
  });
});

describe('injectBanter against a webcast server', () => {
  let clock: ManualClock;
  let server: WebcastServer;

  beforeAll(async () => {
    clock = new ManualClock();
    server = new WebcastServer(clock);
    await server.listening();
  });
  afterEach(() => server.reset());
  afterAll(() => server.close());

  const login = () => ({ wavPath: eightSeconds, gainDb: 0, webdjUrl: server.url, username: 'dj', password: 'secret' });

  it('logs in, waits for a refusal, then sends the buffer at once and the rest in real time, closing after the last byte', async () => {
    const injected = injectBanter({ ...login(), audio, metadata: { title: 'Between songs', artist: 'Anima' } }, clock);
    expect(await server.until(1)).toEqual({ text: { type: 'hello', data: { mime: 'audio/webm;codecs=opus', user: 'dj', password: 'secret' } } });
    // Nothing but the hello until the harbor has had time to refuse the login.
    expect(server.seen).toHaveLength(1);
    clock.advance(VERDICT_MIN_MS);
    const startedAt = clock.now();
    expect(await server.until(2)).toEqual({ text: { type: 'metadata', data: { title: 'Between songs', artist: 'Anima' } } });
    const total = audio.bytes.length;
    expect(await server.until(3)).toEqual({ binary: bytesDue(total, audio.durationS, audio.leadS, 0), at: startedAt });

    const lastByteAtMs = (audio.durationS - audio.leadS) * 1000;
    while (clock.now() - startedAt < lastByteAtMs) {
      const count = server.seen.length;
      clock.advance(Math.min(PACING_TICK_MS, lastByteAtMs - (clock.now() - startedAt)));
      await server.until(count + 1);
    }
    const result = await injected;
    expect(await server.closed()).toBe(1000);

    const frames = binaryFrames(server.seen);
    expect(frames.reduce((sum, frame) => sum + frame.binary, 0)).toBe(total);
    expect(result).toEqual({ sentBytes: total, durationS: audio.durationS });
    // Each tick tops the stream up to the lead: never ahead of it, never behind by more than a tick.
    let sent = 0;
    for (const frame of frames) {
      sent += frame.binary;
      expect(sent).toBe(bytesDue(total, audio.durationS, audio.leadS, frame.at - startedAt));
    }
    expect(frames.at(-1)?.at).toBe(startedAt + lastByteAtMs);
    expect(frames.length).toBe(1 + Math.ceil(lastByteAtMs / PACING_TICK_MS));
  });

  it('primed, holds the harbor a second short of its buffer until it goes live, then tops up to the lead', async () => {
    let goLive = () => {};
    const live = new Promise<void>((resolve) => {
      goLive = resolve;
    });
    const stop = new AbortController();
    const injected = injectBanter({ ...login(), audio, goLive: live, signal: stop.signal }, clock);
    await server.until(1);
    clock.advance(VERDICT_MIN_MS);
    const total = audio.bytes.length;
    const primeS = audio.leadS - 0.5 - PRIME_SHORT_S;
    expect(await server.until(2)).toMatchObject({ binary: Math.floor((total * primeS) / audio.durationS) });
    // The song plays on: however long that takes on the clock, nothing more is sent until it ends.
    clock.advance(1500);
    expect(server.seen).toHaveLength(2);
    goLive();
    const liveAt = clock.now();
    expect(await server.until(3)).toMatchObject({ at: liveAt });
    expect(binaryFrames(server.seen).reduce((sum, frame) => sum + frame.binary, 0)).toBe(bytesDue(total, audio.durationS, audio.leadS, 0));
    stop.abort(new Error('enough'));
    await expect(injected).rejects.toThrow('enough');
  });

  it('reports a login closed with 1011 as auth, before any audio', async () => {
    server.refuse = 'password';
    const error = await injectBanter({ ...login(), audio }, clock).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WebcastError);
    expect(error).toMatchObject({ kind: 'auth', message: expect.stringContaining('Authentication failed.') });
    expect(await server.closed()).toBe(1011);
    expect(binaryFrames(server.seen)).toHaveLength(0);
  });

  it('reports a refusal that comes only after the last byte as auth, never as a success', async () => {
    server.refuse = 'late_password';
    const short = join(folder, 'all-at-once.wav');
    await writeFile(short, toneWav(2));
    const allAtOnce = await prepareBanterAudio({ wavPath: short, gainDb: 0 });
    const injected = injectBanter({ ...login(), audio: allAtOnce }, clock);
    await server.until(1);
    clock.advance(VERDICT_MIN_MS);
    await expect(injected).rejects.toMatchObject({ kind: 'auth' });
    await server.closed();
    expect(binaryFrames(server.seen)).toEqual([{ binary: allAtOnce.bytes.length, at: expect.any(Number) }]);
  });

  it('reports a connection dropped right after the hello as busy (another broadcaster holds the mount)', async () => {
    server.refuse = 'mount_taken';
    await expect(injectBanter({ ...login(), audio }, clock)).rejects.toMatchObject({ kind: 'busy', message: expect.stringContaining('another broadcaster') });
    await server.closed();
    expect(binaryFrames(server.seen)).toHaveLength(0);
  });

  it('logs out again when the WAV cannot be encoded, and reports encode', async () => {
    const injected = injectBanter({ ...login(), wavPath: join(folder, 'missing.wav') }, clock);
    await expect(injected).rejects.toMatchObject({ kind: 'encode', message: expect.stringContaining('missing.wav') });
    if (server.seen.length > 0) expect(await server.closed()).toBeGreaterThan(0);
    expect(binaryFrames(server.seen)).toHaveLength(0);
  });

  it('stops sending and drops the connection when aborted', async () => {
    const controller = new AbortController();
    const injected = injectBanter({ ...login(), audio, signal: controller.signal }, clock);
    await server.until(1);
    clock.advance(VERDICT_MIN_MS);
    expect(await server.until(2)).toMatchObject({ binary: expect.any(Number) });
    controller.abort(new Error('station disabled'));
    await expect(injected).rejects.toThrow('station disabled');
    expect(await server.closed()).toBeGreaterThan(0);
    clock.advance(10_000);
    expect(binaryFrames(server.seen)).toHaveLength(1);
  });
});

describe('injectBanter without a harbor', () => {
  let http: Server;
  beforeAll(async () => {
    http = createServer((_request, response) => response.writeHead(404).end('not found'));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));

  it('reports a refused connection as connect', async () => {
    // A port that just stopped listening refuses connections.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    await expect(
      injectBanter({ wavPath: eightSeconds, gainDb: 0, audio, webdjUrl: `ws://127.0.0.1:${port}/`, username: 'dj', password: 'x' }, new ManualClock()),
    ).rejects.toMatchObject({ kind: 'connect', message: expect.stringContaining('ECONNREFUSED') });
  });

  it('reports a server that is no web broadcaster (HTTP 404) as connect', async () => {
    const url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}/webdj/station/`;
    await expect(
      injectBanter({ wavPath: eightSeconds, gainDb: 0, audio, webdjUrl: url, username: 'dj', password: 'x' }, new ManualClock()),
    ).rejects.toMatchObject({
      kind: 'connect',
      message: expect.stringContaining('HTTP 404'),
    });
  });

  it('refuses a web-broadcaster address that is not ws:// or wss://', async () => {
    await expect(
      injectBanter({ wavPath: eightSeconds, gainDb: 0, webdjUrl: 'http://example.org/', username: 'dj', password: 'x' }, new ManualClock()),
    ).rejects.toThrow('ws://');
  });
});
