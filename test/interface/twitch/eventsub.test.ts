import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConnectionReport } from '../../../src/components/contract.ts';
import { backoffMs, EventSub } from '../../../interface/twitch/eventsub.ts';
import { ManualClock } from '../../helpers/manual-clock.ts';
import { startTwitchServer, type TwitchServer } from '../../helpers/twitch-server.ts';

describe('the Twitch EventSub client, against a local EventSub server, on a manual clock', () => {
  let twitch: TwitchServer;
  let clock: ManualClock;
  let eventSub: EventSub;
  let reports: ConnectionReport[];
  let sessions: string[];
  beforeEach(async () => {
    twitch = await startTwitchServer({ keepaliveSeconds: 10 });
    clock = new ManualClock();
    reports = [];
    sessions = [];
    eventSub = new EventSub({
      url: twitch.eventSubUrl,
      onSession: async (id) => {
        sessions.push(id);
      },
      onNotification: () => undefined,
      onRevocation: () => undefined,
      report: (report) => reports.push(report),
      logger: pino({ level: 'silent' }),
      clock,
    });
  });
  afterEach(async () => {
    eventSub.stop();
    await twitch.close();
  });

  it('keeps a session alive while keepalives come, and replaces a silent one with a new session after the keepalive timeout', async () => {
    eventSub.start();
    await vi.waitFor(() => expect(sessions).toHaveLength(1));
    for (let beat = 0; beat < 3; beat += 1) {
      clock.advance(9_000);
      const before = twitch.connections;
      twitch.keepalive();
      // The keepalive arrives over a real socket; once read, the deadline is 10 s from now.
      await vi.waitFor(() => expect(clock.nextDue()).toBe(clock.now() + 10_000));
      expect(twitch.connections).toBe(before);
    }
    expect(sessions).toHaveLength(1);
    // The deadline passes: the link is dead, and a new session is opened at once (the first retry waits 0 s).
    clock.advance(10_000);
    expect(reports).toContainEqual({ state: 'disconnected', detail: expect.stringMatching(/no keepalive/) });
    await vi.waitFor(() => expect(sessions).toHaveLength(2));
    expect(sessions[1]).not.toBe(sessions[0]);
    expect(twitch.connections).toBe(2);
  });

  it('backs off 0 s after a lost session, then 1, 2, 4... up to 60 s for consecutive failures', () => {
    expect([1, 2, 3, 4, 8, 20].map(backoffMs)).toEqual([0, 1000, 2000, 4000, 60_000, 60_000]);
  });
});
