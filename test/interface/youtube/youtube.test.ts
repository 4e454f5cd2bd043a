import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { shippedRoots } from '../../helpers/component-roots.ts';
import { ManualClock } from '../../helpers/manual-clock.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../../helpers/openai-server.ts';
import { useTestApp } from '../../helpers/services.ts';
import { startYouTubeServer, type YouTubeServer } from '../../helpers/youtube-server.ts';

const lastPrompt = (model: FakeOpenAi) => model.requests.at(-1)?.body.messages?.at(-1)?.content;

describe('the YouTube live chat interface, against a local YouTube Data API, on a manual clock', () => {
  let youtube: YouTubeServer;
  let model: FakeOpenAi;
  let clock: ManualClock;
  beforeEach(async () => {
    clock = new ManualClock();
    youtube = await startYouTubeServer({ now: () => clock.now(), pollingIntervalMillis: 5000 });
    model = await startFakeOpenAi();
  });
  afterEach(async () => {
    await youtube.close();
    await model.close();
  });
  const test = useTestApp({ startInTest: true, componentRoots: { interface: shippedRoots.interface, cortex: shippedRoots.cortex } });

  const launch = async (credentials: Record<string, string>) => {
    await test.start({
      clock,
      environment: {
        CORTEX_ENGINE: 'openai',
        OPENAI_BASE_URL: model.baseUrl,
        ACTIVE_VOX_ENGINE: 'disabled',
        STREAM_MODE: 'false',
        YOUTUBE_API_BASE_URL: youtube.apiBaseUrl,
        YOUTUBE_LIVE_VIDEO_ID: youtube.videoId,
        ...credentials,
      },
    });
    clock.advance(0);
  };
  const status = async () => {
    const response = await test.app.inject({ method: 'GET', url: '/api/components' });
    return (response.json().interfaces as Array<{ name: string; status: string; connection?: { state: string; detail?: string } }>).find(
      (entry) => entry.name === 'youtube',
    );
  };
  const chatPolls = () => youtube.requests.filter((request) => request.method === 'GET' && request.path === '/liveChat/messages');

  it('skips the backlog, polls with nextPageToken at the pollingIntervalMillis the API asks for, and answers a super chat in the chat', async () => {
    youtube.say('Old', 'an old question from before?');
    await launch({ YOUTUBE_ACCESS_TOKEN: youtube.accessToken });
    await vi.waitFor(async () =>
      expect((await status())?.connection).toMatchObject({ state: 'connected', detail: `reading the live chat of ${youtube.videoId} (answering)` }),
    );
    expect(youtube.requests[0]).toMatchObject({ path: '/videos', authorization: `Bearer ${youtube.accessToken}` });
    expect(youtube.requests[0]?.query.get('part')).toBe('liveStreamingDetails');

    model.script({ kind: 'reply', text: 'Thank you so much, Ann!' });
    youtube.superChat('Ann', '$5.00', 'love the stream');
    clock.advance(4999);
    expect(chatPolls()).toHaveLength(1);
    clock.advance(1);
    await vi.waitFor(() => expect(youtube.posted()).toEqual(['Thank you so much, Ann!']), { timeout: 10_000 });
    expect(lastPrompt(model)).toBe('Ann: (Super Chat of $5.00) love the stream');
    // Its own message comes back in the next page and is not taken for a viewer's.
    youtube.setPollingInterval(3000);
    clock.advance(5000);
    await vi.waitFor(() => expect(chatPolls()).toHaveLength(3));
    // The next poll is set once that page is read: 3000 ms, as the page asked.
    await vi.waitFor(() => expect(clock.nextDue()).toBe(clock.now() + 3000));
    clock.advance(3000);
    await vi.waitFor(() => expect(chatPolls()).toHaveLength(4));
    expect(chatPolls().map((request) => [request.query.get('pageToken'), request.at - (chatPolls()[0]?.at ?? 0)])).toEqual([
      [null, 0],
      ['1', 5000],
      ['2', 10_000],
      ['3', 13_000],
    ]);
    expect(model.requests).toHaveLength(1);
    expect(await test.harness.services.history.chat.load(`youtube/${youtube.videoId}`)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ sender_id: 'UCAnn' }),
        expect.objectContaining({ sender_id: 'self', text: 'Thank you so much, Ann!' }),
      ]),
    );
  });

  it('with an API key only, reads the chat, says it is read only, and posts nothing', async () => {
    await launch({ YOUTUBE_API_KEY: youtube.apiKey });
    await vi.waitFor(async () => expect((await status())?.connection?.detail).toMatch(/read only: YOUTUBE_API_KEY cannot post/));
    expect(youtube.requests[0]?.query.get('key')).toBe(youtube.apiKey);
    model.script({ kind: 'reply', text: 'Nobody will read this in the chat.' });
    youtube.superChat('Ben', '$2.00', 'hi');
    clock.advance(5000);
    await vi.waitFor(() => expect(model.requests).toHaveLength(1));
    clock.advance(5000);
    await vi.waitFor(() => expect(chatPolls()).toHaveLength(3));
    expect(youtube.requests.filter((request) => request.method === 'POST')).toHaveLength(0);
  });

  const refreshing = () => ({
    YOUTUBE_ACCESS_TOKEN: youtube.accessToken,
    YOUTUBE_REFRESH_TOKEN: youtube.oauthClient.refreshToken,
    YOUTUBE_CLIENT_ID: youtube.oauthClient.clientId,
    YOUTUBE_CLIENT_SECRET: youtube.oauthClient.clientSecret,
    YOUTUBE_AUTH_BASE_URL: youtube.authBaseUrl,
  });

  it('renews an access token that expired mid-stream with the refresh token, and the answer goes through with the new one', async () => {
    await launch(refreshing());
    await vi.waitFor(async () => expect((await status())?.connection?.state).toBe('connected'));
    youtube.expireAccessToken();
    model.script({ kind: 'reply', text: 'Thanks, Cid!' });
    youtube.superChat('Cid', '$3.00', 'still live?');
    clock.advance(5000);
    await vi.waitFor(() => expect(youtube.posted()).toEqual(['Thanks, Cid!']));
    expect(youtube.refreshes.map((form) => Object.fromEntries(form))).toEqual([
      {
        grant_type: 'refresh_token',
        refresh_token: youtube.oauthClient.refreshToken,
        client_id: youtube.oauthClient.clientId,
        client_secret: youtube.oauthClient.clientSecret,
      },
    ]);
    // The poll refused with the old token was made again with the new one, and the answer used it too.
    expect(chatPolls().map((request) => request.status)).toEqual([200, 401, 200]);
    const post = youtube.requests.find((request) => request.method === 'POST');
    expect(post?.authorization).toBe(`Bearer ${youtube.accessToken}`);
    expect((await status())?.connection?.state).toBe('connected');
  });

  it('reports a refused refresh token with the reason and stops polling, without a retry loop', async () => {
    await launch(refreshing());
    await vi.waitFor(async () => expect((await status())?.connection?.state).toBe('connected'));
    youtube.revokeRefreshToken();
    youtube.expireAccessToken();
    clock.advance(5000);
    await vi.waitFor(async () =>
      expect(await status()).toMatchObject({
        status: 'loaded',
        connection: { state: 'disconnected', detail: expect.stringMatching(/invalid_grant: Token has been expired or revoked.*YOUTUBE_REFRESH_TOKEN/) },
      }),
    );
    const [polls, refreshes] = [chatPolls().length, youtube.refreshes.length];
    clock.advance(10 * 60_000);
    expect([chatPolls().length, youtube.refreshes.length]).toEqual([polls, refreshes]);
  });

  it('with an expired access token and no refresh token, says the token was refused instead of retrying', async () => {
    const expired = youtube.accessToken;
    youtube.expireAccessToken();
    await launch({ YOUTUBE_ACCESS_TOKEN: expired });
    await vi.waitFor(async () =>
      expect((await status())?.connection).toMatchObject({ state: 'disconnected', detail: expect.stringMatching(/no refresh token is configured/) }),
    );
    expect(youtube.requests.map((request) => request.status)).toEqual([401]);
  });

  it('stops polling when the stream ends, and says so', async () => {
    await launch({ YOUTUBE_ACCESS_TOKEN: youtube.accessToken });
    await vi.waitFor(async () => expect((await status())?.connection?.state).toBe('connected'));
    youtube.end();
    clock.advance(5000);
    await vi.waitFor(async () =>
      expect((await status())?.connection).toMatchObject({ state: 'disconnected', detail: expect.stringMatching(/no longer live/) }),
    );
    const polls = chatPolls().length;
    clock.advance(60_000);
    expect(chatPolls()).toHaveLength(polls);
  });
});
