import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { shippedRoots } from '../helpers/component-roots.ts';
import { ManualClock } from '../helpers/manual-clock.ts';
import { type FakeOpenAi, gate, type RecordedRequest, startFakeOpenAi } from '../helpers/openai-server.ts';
import { useTestApp } from '../helpers/services.ts';
import { startTwitchServer, type TwitchServer } from '../helpers/twitch-server.ts';

const asked = (request: RecordedRequest) => request.body.messages?.at(-1)?.content ?? '';

describe('stream mode, with Twitch chat from a local EventSub server, on a manual clock', () => {
  let twitch: TwitchServer;
  let model: FakeOpenAi;
  let clock: ManualClock;
  beforeEach(async () => {
    clock = new ManualClock();
    // Keepalives are not the subject here: a session that stays quiet for ten minutes is still alive.
    twitch = await startTwitchServer({ now: () => clock.now(), keepaliveSeconds: 600 });
    model = await startFakeOpenAi();
    model.answerFor = (request) => ({ kind: 'reply', text: `Answering ${asked(request).split(':')[0]}.` });
  });
  afterEach(async () => {
    await twitch.close();
    await model.close();
  });
  const test = useTestApp({ startInTest: true, componentRoots: { interface: shippedRoots.interface, cortex: shippedRoots.cortex } });

  const launch = async (environment: Record<string, string> = {}) => {
    await test.start({
      clock,
      environment: {
        CORTEX_ENGINE: 'openai',
        OPENAI_BASE_URL: model.baseUrl,
        STREAM_ANSWER_INTERVAL_S: '2',
        STREAM_BLOCKED_WORDS: 'badword, spoiler alert',
        TWITCH_API_BASE_URL: twitch.apiBaseUrl,
        TWITCH_AUTH_BASE_URL: twitch.authBaseUrl,
        TWITCH_EVENTSUB_URL: twitch.eventSubUrl,
        TWITCH_CLIENT_ID: twitch.clientId,
        TWITCH_ACCESS_TOKEN: twitch.token,
        TWITCH_CHANNEL: twitch.channel.login,
        ...environment,
      },
    });
    clock.advance(0);
    await vi.waitFor(() => expect(twitch.subscriptions()).toHaveLength(5), { timeout: 10_000 });
  };
  const stream = async () => (await test.app.inject({ method: 'GET', url: '/api/stream' })).json();
  const post = (url: string, payload?: Record<string, unknown>) => test.app.inject({ method: 'POST', url, ...(payload === undefined ? {} : { payload }) });
  /** Until the desk has heard `count` messages and no answer is in progress. */
  const settled = (count: number) =>
    vi.waitFor(
      async () => {
        const status = await stream();
        expect([status.received, status.answering]).toEqual([count, null]);
      },
      { timeout: 20_000, interval: 20 },
    );

  it('answers 200 messages in 10 s at the set pace, aloud, the most worth answering first, and never the filtered ones', async () => {
    await launch();
    const viewers = Array.from({ length: 10 }, (_, index) => twitch.user(`Viewer${index}`));
    for (let index = 0; index < 200; index += 1) {
      const viewer = viewers[index % 10] ?? viewers[0];
      if (!viewer) throw new Error('no viewer');
      if (index === 50) twitch.chat(viewer, `@animabot hello from ${index}`, { mention: twitch.bot });
      else if (index === 70) twitch.chat(viewer, `Cheer100 take my bits ${index}`, { bits: 100 });
      else if (index % 10 === 3) twitch.chat(viewer, `is this a badword ${index}?`);
      else if (index === 95) twitch.chat(viewer, `SPOILER ALERT the ending ${index}?`);
      else if (index % 10 === 7) twitch.chat(viewer, `what game is next ${index}?`);
      else twitch.chat(viewer, `hype ${index}`);
      await settled(index + 1);
      clock.advance(50);
    }
    await settled(200);

    // One answer every 2 s from the first message on: at 2, 4, 6, 8 and 10 s.
    expect(model.requests.map((request) => asked(request).replace(/^Viewer\d: /, ''))).toEqual([
      'what game is next 7?',
      // The cheer, told by channel.cheer (its chat copy is not heard twice).
      '(Viewer0 cheered 100 bits) Cheer100 take my bits 70',
      '@animabot hello from 50',
      // Questions older than three intervals are dropped: the chat has moved on.
      'what game is next 47?',
      'what game is next 87?',
    ]);
    const status = await stream();
    expect(status).toMatchObject({ enabled: true, muted: false, received: 200, answered: 5, filtered: 21 });
    expect(model.requests.some((request) => /badword|spoiler/i.test(asked(request)))).toBe(false);
    // Spoken through the avatar, and written in the chat as the reply to the message answered.
    expect(twitch.sent.map((entry) => entry.message)).toEqual([
      'Answering Viewer7.',
      'Answering Viewer0.',
      'Answering Viewer0.',
      'Answering Viewer7.',
      'Answering Viewer7.',
    ]);
    expect((await readdir(join(test.harness.cwd, 'tmp_tts'))).filter((name) => name.endsWith('.wav'))).toHaveLength(5);
  });

  it('answers a follow, a subscription, a cheer and a raid before the chat, the support first, and says it in the chat through Helix', async () => {
    await launch({ ACTIVE_VOX_ENGINE: 'disabled' });
    const [ann, ben, cid, dee] = ['Ann', 'Ben', 'Cid', 'Dee'].map((name) => twitch.user(name));
    if (!ann || !ben || !cid || !dee) throw new Error('no viewers');
    twitch.chat(ann, 'what game is next?');
    twitch.follow(ben);
    twitch.chat(ann, '@animabot hi', { mention: twitch.bot });
    twitch.subscribe(cid, '1000');
    twitch.chat(dee, 'Cheer500 for the stream', { bits: 500 });
    twitch.raid(twitch.user('Raider'), 30);
    await vi.waitFor(async () => expect((await stream()).received).toBe(6), { timeout: 10_000 });
    for (let pick = 1; pick <= 3; pick += 1) {
      clock.advance(2000);
      await settled(6);
      await vi.waitFor(() => expect(twitch.sent).toHaveLength(pick), { timeout: 10_000 });
    }
    // Support first, oldest first: the subscription, the cheer (heard once), the raid.
    expect(model.requests.map(asked)).toEqual([
      'Cid: (Cid just subscribed to the channel, tier 1.)',
      'Dee: (Dee cheered 500 bits) Cheer500 for the stream',
      'Raider: (Raider is raiding the channel with 30 viewers.)',
    ]);
    expect(twitch.sent.map((entry) => entry.message)).toEqual(['Answering Cid.', 'Answering Dee.', 'Answering Raider.']);
    expect(twitch.sent.every((entry) => entry.sender_id === twitch.bot.id && entry.broadcaster_id === twitch.channel.id)).toBe(true);
    // Three intervals on, the mention, the follow and the question are stale: the chat has moved on.
    clock.advance(2000);
    await vi.waitFor(async () => expect(await stream()).toMatchObject({ waiting: 0, answered: 3, dropped: 3 }));
  });

  it('mutes and unmutes from a stream deck (POST /api/stream/mute), and skips the answer in progress (POST /api/stream/skip)', async () => {
    await launch();
    const sam = twitch.user('Sam');
    expect((await post('/api/stream/mute', { muted: 'yes' })).statusCode).toBe(400);
    expect((await post('/api/stream/mute')).json()).toMatchObject({ muted: true });
    twitch.chat(sam, 'anyone there?');
    await settled(1);
    clock.advance(4000);
    expect(model.requests).toHaveLength(0);
    expect((await post('/api/stream/mute', { muted: false })).json()).toMatchObject({ muted: false, waiting: 1 });
    model.answerFor = undefined;
    model.script({ kind: 'reply', text: 'A slow answer nobody hears.', hold: { at: 0, release: gate().release } });
    // Unmuted, the next pick comes one interval later.
    clock.advance(2000);
    await vi.waitFor(() => expect(model.requests).toHaveLength(1));
    expect((await stream()).answering).toMatchObject({ sender_name: 'Sam', text: 'anyone there?' });
    expect((await post('/api/stream/skip')).json()).toMatchObject({ skipped_now: true, skipped: 1 });
    await vi.waitFor(async () => expect((await stream()).answering).toBeNull());
    expect((await post('/api/stream/skip')).json()).toMatchObject({ skipped_now: false });
    // The skipped answer's request was dropped, so nothing of it can reach the chat later.
    await model.waitForAborted(1);
    expect(twitch.sent).toHaveLength(0);
    const untrusted = await test.app.inject({ method: 'POST', url: '/api/stream/skip', remoteAddress: '203.0.113.7' });
    expect(untrusted.statusCode).toBe(401);
  });
});
