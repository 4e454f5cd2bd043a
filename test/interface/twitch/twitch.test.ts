import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Clock, systemClock } from '../../../src/body/clock.ts';
import { shippedRoots } from '../../helpers/component-roots.ts';
import { ManualClock } from '../../helpers/manual-clock.ts';
import { type FakeOpenAi, startFakeOpenAi, lastPrompt } from '../../helpers/openai-server.ts';
import { useTestApp } from '../../helpers/services.ts';
import { startTwitchServer, type TwitchServer } from '../../helpers/twitch-server.ts';

describe('the Twitch interface, against a local EventSub WebSocket and Helix server', () => {
  let twitch: TwitchServer;
  let model: FakeOpenAi;
  /** The clock the app and the Helix server share; a test that drives time sets a ManualClock before it starts. */
  let clock: Clock;
  beforeEach(async () => {
    clock = systemClock;
    // Keepalives are not the subject here (eventsub.test.ts drives them): on a loaded machine a 10 s timeout
    // on the real clock would replace the session mid-test, and its new subscriptions would hear events twice.
    twitch = await startTwitchServer({ keepaliveSeconds: 600, now: () => clock.now() });
    model = await startFakeOpenAi();
  });
  afterEach(async () => {
    await twitch.close();
    await model.close();
  });
  const test = useTestApp({ startInTest: true, componentRoots: { interface: shippedRoots.interface, cortex: shippedRoots.cortex } });

  const start = (environment: Record<string, string> = {}) =>
    test.start({
      clock,
      environment: {
        CORTEX_ENGINE: 'openai',
        OPENAI_BASE_URL: model.baseUrl,
        ACTIVE_VOX_ENGINE: 'disabled',
        STREAM_MODE: 'false',
        TWITCH_API_BASE_URL: twitch.apiBaseUrl,
        TWITCH_AUTH_BASE_URL: twitch.authBaseUrl,
        TWITCH_EVENTSUB_URL: twitch.eventSubUrl,
        TWITCH_CLIENT_ID: twitch.clientId,
        TWITCH_ACCESS_TOKEN: `oauth:${twitch.token}`,
        TWITCH_CHANNEL: '#StreamerGal',
        ...environment,
      },
    });
  const launch = async (environment: Record<string, string> = {}) => {
    await start(environment);
    await connected();
  };
  const status = async () => {
    const response = await test.app.inject({ method: 'GET', url: '/api/components' });
    return (response.json().interfaces as Array<{ name: string; status: string; connection?: { state: string; detail?: string } }>).find(
      (entry) => entry.name === 'twitch',
    );
  };
  const connected = () => vi.waitFor(async () => expect((await status())?.connection?.state).toBe('connected'), { timeout: 10_000, interval: 20 });
  /** What the viewers' turns asked (a request the host makes after an answer ends with that answer). */
  const viewerPrompts = () =>
    model.requests.flatMap((request) => {
      const last = request.body.messages?.at(-1);
      return last?.role === 'user' ? [last.content] : [];
    });
  const subscriptionPosts = () => twitch.requests.filter((request) => request.path === '/eventsub/subscriptions');
  const history = async () => (await test.harness.services.history.chat.load('twitch/streamergal')).map((item) => [item.sender_id, item.text]);

  it('resolves the channel and its own account, subscribes its session, and answers a mention with a reply in the chat', async () => {
    await launch();
    expect(twitch.requests.filter((request) => request.path === '/users').map((request) => request.query.get('login'))).toEqual([null, 'streamergal']);
    expect(twitch.validations).toEqual([`OAuth ${twitch.token}`]);
    expect(subscriptionPosts().map((request) => request.json)).toEqual(
      ['channel.chat.message', 'channel.follow', 'channel.subscribe', 'channel.raid', 'channel.cheer'].map((type) =>
        expect.objectContaining({ type, transport: { method: 'websocket', session_id: twitch.sessionIds()[0] } }),
      ),
    );
    expect(subscriptionPosts()[0]?.json?.condition).toEqual({ broadcaster_user_id: twitch.channel.id, user_id: twitch.bot.id });
    expect((await status())?.connection?.detail).toBe('as animabot in #streamergal');

    const sam = twitch.user('Sam');
    model.script({ kind: 'reply', text: 'Hi Sam, welcome in!' });
    twitch.chat(sam, 'nobody talks to the bot here');
    const asked = twitch.chat(sam, '@animabot hello there', { mention: twitch.bot });
    await vi.waitFor(() => expect(twitch.sent).toHaveLength(1));
    expect(twitch.sent[0]).toEqual({
      broadcaster_id: twitch.channel.id,
      sender_id: twitch.bot.id,
      message: 'Hi Sam, welcome in!',
      reply_parent_message_id: asked,
    });
    const post = twitch.requests.find((request) => request.path === '/chat/messages');
    expect([post?.clientId, post?.authorization]).toEqual([twitch.clientId, `Bearer ${twitch.token}`]);
    expect(lastPrompt(model)).toBe('Sam: @animabot hello there');
    // Its own message comes back through EventSub and is not answered.
    await vi.waitFor(async () => expect(await history()).toContainEqual(['self', 'Hi Sam, welcome in!']));
    expect(model.requests).toHaveLength(1);
  });

  it('hands follows, subscriptions, cheers and raids to the model as messages from that viewer, and answers each through Helix once', async () => {
    await launch();
    const mia = twitch.user('Mia');
    const answers = ['Thanks for the follow!', 'Thanks for the sub!', 'Thanks for the bits!', 'Thank you, whoever you are!', 'Welcome raiders!'];
    model.script(...answers.map((text) => ({ kind: 'reply' as const, text })));
    const answered = (count: number) =>
      vi.waitFor(() => expect(twitch.sent.map((entry) => entry.message)).toEqual(answers.slice(0, count)), { timeout: 10_000 });
    twitch.follow(mia);
    await answered(1);
    expect(viewerPrompts().at(-1)).toBe('Mia: (Mia just followed the channel.)');
    twitch.subscribe(mia, '2000');
    await answered(2);
    expect(viewerPrompts().at(-1)).toBe('Mia: (Mia just subscribed to the channel, tier 2.)');
    // A cheer comes as a chat message and as channel.cheer: heard once, with its bits.
    twitch.chat(mia, 'Cheer100 great stream', { bits: 100 });
    await answered(3);
    expect(viewerPrompts().at(-1)).toBe('Mia: (Mia cheered 100 bits) Cheer100 great stream');
    twitch.anonymousCheer(50, 'keep going');
    await answered(4);
    expect(viewerPrompts().at(-1)).toBe('An anonymous viewer: (An anonymous viewer cheered 50 bits) keep going');
    twitch.raid(twitch.user('OtherStreamer'), 42);
    await answered(5);
    expect(viewerPrompts().at(-1)).toBe('OtherStreamer: (OtherStreamer is raiding the channel with 42 viewers.)');
    expect(viewerPrompts()).toHaveLength(5);
    expect(twitch.sent.every((entry) => entry.reply_parent_message_id === undefined && entry.sender_id === twitch.bot.id)).toBe(true);
  });

  it('without the scope for channel.cheer, answers the cheer of the chat message instead', async () => {
    twitch.refused.add('channel.cheer');
    await launch();
    model.script({ kind: 'reply', text: 'Thanks for the bits!' });
    const cheered = twitch.chat(twitch.user('Mia'), 'Cheer100 great stream', { bits: 100 });
    await vi.waitFor(() => expect(twitch.sent.map((entry) => entry.message)).toEqual(['Thanks for the bits!']), { timeout: 10_000 });
    expect(lastPrompt(model)).toBe('Mia: Cheer100 great stream');
    expect(twitch.sent[0]?.reply_parent_message_id).toBe(cheered);
  });

  it('validates the token before opening EventSub, and shows an expired one with the reason instead of connecting', async () => {
    await start({ TWITCH_ACCESS_TOKEN: 'oauth:expired-token' });
    await vi.waitFor(async () =>
      expect(await status()).toMatchObject({
        status: 'loaded',
        connection: { state: 'disconnected', detail: expect.stringMatching(/TWITCH_ACCESS_TOKEN is expired or revoked \(Twitch: invalid access token\)/) },
      }),
    );
    expect(twitch.validations).toEqual(['OAuth expired-token']);
    expect([twitch.connections, twitch.requests.length]).toEqual([0, 0]);
  });

  it('ends the session and says why when Helix refuses a token revoked mid-stream', async () => {
    await launch();
    twitch.rotateToken();
    model.script({ kind: 'reply', text: 'This reply meets a revoked token.' });
    twitch.chat(twitch.user('Sam'), '@animabot hi', { mention: twitch.bot });
    await vi.waitFor(
      async () => expect((await status())?.connection).toMatchObject({ state: 'disconnected', detail: expect.stringMatching(/expired or revoked/) }),
      { timeout: 10_000, interval: 20 },
    );
    expect(twitch.requests.filter((request) => request.path === '/chat/messages').map((request) => request.status)).toEqual([401]);
    expect(twitch.validations).toHaveLength(2);
    await vi.waitFor(() => expect(twitch.closedByClient).toBe(1));
    expect(twitch.connections).toBe(1);
  });

  it('waits out a 429 until Ratelimit-Reset on its clock, and splits an answer over 500 characters', async () => {
    const manual = new ManualClock();
    clock = manual;
    await launch();
    const long = 'This is one sentence of a long answer. '.repeat(20).trim();
    const chatPosts = () => twitch.requests.filter((request) => request.path === '/chat/messages').map((request) => request.status);
    twitch.rateLimitNext(/^\/chat\/messages$/);
    model.script({ kind: 'reply', text: long });
    twitch.chat(twitch.user('Sam'), '@animabot tell me a lot', { mention: twitch.bot });
    // The bucket refills a second from now: the retry waits on the clock for exactly that, having sent nothing more.
    await vi.waitFor(() => expect([chatPosts(), manual.nextDue()]).toEqual([[429], manual.now() + 1000]), { timeout: 10_000 });
    manual.advance(1000);
    await vi.waitFor(() => expect(twitch.sent.map((entry) => entry.message).join(' ')).toBe(long), { timeout: 10_000 });
    expect(twitch.sent.length).toBe(2);
    expect(twitch.sent.every((entry) => entry.message.length <= 500)).toBe(true);
    expect(chatPosts()).toEqual([429, 200, 200]);
  });

  it('obeys session_reconnect: connects to the new URL before closing the old socket, and keeps its subscriptions', async () => {
    await launch();
    twitch.reconnect();
    await vi.waitFor(() => expect(twitch.connections).toBe(2));
    await vi.waitFor(() => expect(twitch.closedByClient).toBe(1));
    expect(subscriptionPosts()).toHaveLength(5);
    expect(twitch.subscriptions()).toHaveLength(5);
    model.script({ kind: 'reply', text: 'Still here.' });
    twitch.chat(twitch.user('Sam'), '@animabot still there?', { mention: twitch.bot });
    await vi.waitFor(() => expect(twitch.sent.map((entry) => entry.message)).toEqual(['Still here.']));
    expect((await status())?.connection?.state).toBe('connected');
  });

  it('says which events a token without their scope cannot follow, and reports a revoked chat subscription', async () => {
    twitch.refused.add('channel.subscribe');
    await launch();
    expect((await status())?.connection?.detail).toMatch(/no channel\.subscribe/);
    twitch.revoke('channel.chat.message');
    await vi.waitFor(async () =>
      expect((await status())?.connection).toMatchObject({ state: 'disconnected', detail: expect.stringMatching(/revoked channel\.chat\.message/) }),
    );
  });
});
