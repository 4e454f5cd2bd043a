import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConnectionReport } from '../../../src/components/contract.ts';
import { backoffMs, Gateway, Op } from '../../../interface/fluxer/gateway.ts';
import { FluxerRest } from '../../../interface/fluxer/rest.ts';
import { type DiscordLikeServer, startDiscordLikeServer } from '../../helpers/discord-like-server.ts';
import { ManualClock } from '../../helpers/manual-clock.ts';

const INTERVAL_MS = 1000;

describe('the Fluxer gateway client, against a local Discord-like gateway, on a manual clock', () => {
  let server: DiscordLikeServer;
  let clock: ManualClock;
  let gateway: Gateway;
  let reports: ConnectionReport[];
  let dispatches: Array<{ type: string; data: unknown }>;

  beforeEach(async () => {
    server = await startDiscordLikeServer({ botName: 'Anima' });
    server.heartbeatIntervalMs = INTERVAL_MS;
    clock = new ManualClock();
    reports = [];
    dispatches = [];
  });
  afterEach(async () => {
    gateway.stop();
    await server.close();
  });

  const start = (token = server.token, url = async () => server.gatewayUrl) => {
    gateway = new Gateway({
      url,
      token,
      version: '1',
      onDispatch: (type, data) => dispatches.push({ type, data }),
      report: (report) => reports.push(report),
      logger: pino({ level: 'silent' }),
      clock,
      random: () => 0.5,
    });
    gateway.start();
  };
  const reported = (match: (report: ConnectionReport) => boolean, after = 0) =>
    vi.waitFor(() => expect(reports.slice(after).some(match)).toBe(true), { timeout: 5000 });
  const connected = (after = 0) => reported((report) => report.state === 'connected', after);
  const heartbeats = () => server.frames.filter((frame) => frame.op === Op.Heartbeat);
  const messagesSeen = () => dispatches.filter((entry) => entry.type === 'MESSAGE_CREATE').map((entry) => (entry.data as { content: string }).content);

  it('identifies after HELLO and beats at the server interval, the first one after a random part of it, with the last sequence', async () => {
    start();
    const identify = await server.waitForFrame(Op.Identify);
    expect(identify.d).toMatchObject({ intents: expect.any(Number), properties: expect.any(Object) });
    await connected();
    expect(reports.at(-1)).toEqual({ state: 'connected', detail: 'as Anima' });
    expect(gateway.user?.id).toBe(server.bot.id);

    clock.advance(INTERVAL_MS / 2 - 1);
    clock.advance(1);
    expect((await server.waitForFrame(Op.Heartbeat)).d).toBe(1);
    await vi.waitFor(() => expect(gateway.latencyMs).toBeDefined());
    clock.advance(INTERVAL_MS);
    await vi.waitFor(() => expect(heartbeats()).toHaveLength(2));
    expect(server.identifies).toBe(1);
    expect(server.frames.some((frame) => frame.op === Op.Resume)).toBe(false);
  });

  it('takes a heartbeat without ACK for a dead link: it reconnects and resumes the session with its last sequence', async () => {
    start();
    await connected();
    server.acknowledgeHeartbeats = false;
    clock.advance(INTERVAL_MS / 2);
    await server.waitForFrame(Op.Heartbeat);
    const before = reports.length;
    // The next heartbeat finds the last one unanswered: the link is dropped and reconnected at once.
    clock.advance(INTERVAL_MS);
    const resume = await server.waitForFrame(Op.Resume);
    expect(resume.d).toMatchObject({ session_id: expect.any(String), seq: 1 });
    await connected(before);
    expect(reports.slice(before)).toContainEqual(expect.objectContaining({ state: 'disconnected', detail: expect.stringContaining('no heartbeat ACK') }));
    expect(server.identifies).toBe(1);
  });

  it('resumes after a dropped connection and hands on what was said meanwhile exactly once', async () => {
    start();
    await connected();
    const guild = server.guild('Home', ['general']);
    const [general] = guild.channels;
    if (!general) throw new Error('no channel');
    const sam = server.user('Sam');
    server.say(general, sam, 'one');
    await vi.waitFor(() => expect(messagesSeen()).toEqual(['one']));
    const before = reports.length;
    server.drop();
    await reported((report) => report.state === 'disconnected', before);
    // Said while the bot is away: the session keeps it for the resume.
    server.say(general, sam, 'two');
    server.say(general, sam, 'three');
    clock.advance(0);
    await connected(before);
    await vi.waitFor(() => expect(messagesSeen()).toEqual(['one', 'two', 'three']));
    expect(server.identifies).toBe(1);
    // A RECONNECT request is obeyed the same way, and nothing already handled is handled again.
    const again = reports.length;
    server.requestReconnect();
    await reported((report) => report.state === 'disconnected', again);
    clock.advance(0);
    await connected(again);
    server.say(general, sam, 'four');
    await vi.waitFor(() => expect(messagesSeen()).toEqual(['one', 'two', 'three', 'four']));
  });

  it('identifies afresh after an INVALID_SESSION that cannot be resumed', async () => {
    start();
    await connected();
    const before = reports.length;
    server.invalidateSessions(false);
    await reported((report) => report.state === 'disconnected' && /invalidated/.test(report.detail ?? ''), before);
    clock.advance(0);
    await vi.waitFor(() => expect(server.identifies).toBe(2));
    await connected(before);
    expect(server.frames.some((frame) => frame.op === Op.Resume)).toBe(false);
  });

  it('stops on a refused token (close 4004) and says why, without retrying', async () => {
    const old = server.token;
    server.rotateToken();
    start(old);
    await reported((report) => report.state === 'disconnected' && /refused the token.*4004/.test(report.detail ?? ''));
    expect(clock.pending()).toBe(0);
  });

  it('stops when REST refuses the token asking for the gateway address (401), without retrying', async () => {
    const rest = new FluxerRest({
      settings: () => ({ restBase: `${server.apiBaseUrl}/v1`, authorization: 'Bot wrong' }),
      logger: pino({ level: 'silent' }),
      clock,
    });
    start(server.token, () => rest.gatewayUrl());
    await reported((report) => report.state === 'disconnected' && /refused the token.*401/.test(report.detail ?? ''));
    expect(clock.pending()).toBe(0);
    expect(server.requests.map((request) => [request.path, request.status])).toEqual([['/gateway/bot', 401]]);
  });

  it('retries with back-off while the gateway address is unusable, and connects once it is', async () => {
    let address = 'not a url';
    start(server.token, async () => address);
    await reported((report) => report.state === 'disconnected' && /no gateway address.*reconnecting/.test(report.detail ?? ''));
    clock.advance(0);
    await reported((report) => /retrying in 1 s/.test(report.detail ?? ''));
    address = server.gatewayUrl;
    clock.advance(1000);
    await connected();
  });

  it('backs off 0 s after a drop, then 1, 2, 4... up to 60 s for consecutive failures', () => {
    expect([1, 2, 3, 4, 5, 8, 20].map(backoffMs)).toEqual([0, 1000, 2000, 4000, 8000, 60_000, 60_000]);
  });
});
