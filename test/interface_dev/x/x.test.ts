import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enableDevComponents } from '../../../src/components/dev-flag.ts';
import { shippedRoots } from '../../helpers/component-roots.ts';
import { ManualClock } from '../../helpers/manual-clock.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../../helpers/openai-server.ts';
import { useTestApp } from '../../helpers/services.ts';
import { startXApiServer, type XApiServer, type XRequest } from '../../helpers/x-api-server.ts';

const POLL_S = 60;

describe('the X development interface, against a local X API v2', () => {
  let x: XApiServer;
  let model: FakeOpenAi;
  let clock: ManualClock;
  beforeEach(async () => {
    x = await startXApiServer();
    model = await startFakeOpenAi();
    clock = new ManualClock();
    enableDevComponents(true);
  });
  afterEach(async () => {
    enableDevComponents(false);
    await x.close();
    await model.close();
  });
  const test = useTestApp({ startInTest: true, componentRoots: { cortex: shippedRoots.cortex, interfaceDev: shippedRoots.interfaceDev } });

  const settings = () => ({ X_USERNAME: 'anima_bot', X_ACCESS_TOKEN: x.token, X_API_BASE_URL: x.baseUrl, X_POLL_INTERVAL_S: String(POLL_S) });
  const launch = (environment: Record<string, string> = settings()) =>
    test.start({ environment: { CORTEX_ENGINE: 'openai', OPENAI_BASE_URL: model.baseUrl, ACTIVE_VOX_ENGINE: 'disabled', ...environment }, clock });
  const entry = async () => {
    const response = await test.app.inject({ method: 'GET', url: '/api/components' });
    return (response.json().interfaces as Array<{ name: string; status: string; reason?: string; dev: boolean; connection?: unknown }>).find(
      (item) => item.name === 'x',
    );
  };
  const mentionLooks = () => x.requests.filter((request) => request.path.endsWith('/mentions'));
  const replies = (match: (request: XRequest) => boolean = () => true) =>
    x.waitFor((request) => request.method === 'POST' && request.path === '/2/tweets' && request.status === 201 && match(request));

  it('is FAILED, in development, until X_USERNAME and X_ACCESS_TOKEN are set', async () => {
    await launch({ X_USERNAME: 'anima_bot' });
    expect(await entry()).toMatchObject({ status: 'FAILED', dev: true, reason: 'Missing required configuration: X_ACCESS_TOKEN' });
  });

  it('leaves the mentions made before its first look, answers the new ones in their thread, and asks only for mentions since the last', async () => {
    x.mention('sam', '@anima_bot an old question');
    await launch();
    await expect.poll(entry).toMatchObject({ status: 'loaded', dev: true, connection: { state: 'connected', detail: '@anima_bot' } });
    const first = mentionLooks()[0];
    expect(first?.query.get('since_id')).toBeNull();
    expect(first?.path).toBe(`/2/users/${x.account.id}/mentions`);

    const question = x.mention('olga', '@anima_bot what is your favourite colour?');
    model.script({ kind: 'reply', text: `Blue. ${'Really, truly blue. '.repeat(16)}` });
    clock.advance(POLL_S * 1000);
    const reply = await replies();
    expect(mentionLooks()[1]?.query.get('since_id')).not.toBeNull();
    expect(reply.json).toMatchObject({ reply: { in_reply_to_tweet_id: question } });
    expect(reply.headers.authorization).toBe(`Bearer ${x.token}`);
    expect(String(model.requests.at(-1)?.body.messages?.at(-1)?.content)).toContain('what is your favourite colour?');
    // Over 280 characters: the rest answers the first part, as a thread.
    const second = await replies((request) => request !== reply);
    expect(String(reply.json?.text).length).toBeLessThanOrEqual(280);
    expect(second.json?.reply).toEqual({ in_reply_to_tweet_id: expect.any(String) });
    expect(second.json?.reply).not.toEqual({ in_reply_to_tweet_id: question });
    expect(model.requests).toHaveLength(1);

    // The next look is scheduled once this one ended, so time moves on until it happens.
    await expect
      .poll(() => {
        clock.advance(POLL_S * 1000);
        return mentionLooks().length;
      })
      .toBeGreaterThanOrEqual(3);
    expect(model.requests).toHaveLength(1);
  });

  const refreshing = () => ({
    ...settings(),
    X_REFRESH_TOKEN: x.oauthClient.refreshToken,
    X_CLIENT_ID: x.oauthClient.clientId,
    X_CLIENT_SECRET: x.oauthClient.clientSecret,
  });
  const tokenRequests = () => x.requests.filter((request) => request.path === '/2/oauth2/token');

  it('renews an expired access token with the refresh token, replies with the new one, and renews again with the refresh token X rotated', async () => {
    const configured = x.oauthClient.refreshToken;
    await launch(refreshing());
    await expect.poll(entry).toMatchObject({ connection: { state: 'connected' } });

    x.expireToken();
    const question = x.mention('olga', '@anima_bot still there?');
    model.script({ kind: 'reply', text: 'Still here.' }, { kind: 'reply', text: 'And still here.' });
    clock.advance(POLL_S * 1000);
    const reply = await replies();
    expect(reply.json).toMatchObject({ text: 'Still here.', reply: { in_reply_to_tweet_id: question } });
    expect(reply.headers.authorization).toBe(`Bearer ${x.token}`);
    const basic = `Basic ${Buffer.from(`${x.oauthClient.clientId}:${x.oauthClient.clientSecret}`).toString('base64')}`;
    expect(tokenRequests()).toHaveLength(1);
    expect(tokenRequests()[0]?.headers.authorization).toBe(basic);
    expect(Object.fromEntries(new URLSearchParams(tokenRequests()[0]?.body))).toEqual({
      grant_type: 'refresh_token',
      refresh_token: configured,
      client_id: x.oauthClient.clientId,
    });

    // X voided the refresh token it was given: the next renewal must use the one X answered.
    x.expireToken();
    x.mention('olga', '@anima_bot and now?');
    // Time moves on until the next look asks the model, then stands still: the engine's own deadline runs
    // on this clock too, and a jump while the model writes would cut its answer.
    await expect
      .poll(() => {
        if (model.requests.length < 2) clock.advance(POLL_S * 1000);
        return model.requests.length;
      })
      .toBe(2);
    expect((await replies((request) => request !== reply)).json).toMatchObject({ text: 'And still here.' });
    expect(tokenRequests().map((request) => request.status)).toEqual([200, 200]);
    expect(x.oauthClient.refreshToken).not.toBe(configured);
    expect(await entry()).toMatchObject({ status: 'loaded', connection: { state: 'connected' } });
  });

  it('reports a refused refresh with the reason and stops polling, without a retry loop', async () => {
    await launch(refreshing());
    await expect.poll(entry).toMatchObject({ connection: { state: 'connected' } });
    x.revokeRefreshToken();
    x.expireToken();
    clock.advance(POLL_S * 1000);
    await expect.poll(entry).toMatchObject({
      status: 'loaded',
      connection: { state: 'disconnected', detail: expect.stringMatching(/invalid_request: Value passed for the token was invalid.*X_REFRESH_TOKEN/) },
    });
    const seen = x.requests.length;
    clock.advance(10 * POLL_S * 1000);
    expect(x.requests).toHaveLength(seen);
  });

  it('reports a refused token as disconnected and stops polling', async () => {
    await launch({ ...settings(), X_ACCESS_TOKEN: 'revoked' });
    await expect.poll(entry).toMatchObject({ connection: { state: 'disconnected', detail: expect.stringContaining('X_ACCESS_TOKEN') } });
    expect(mentionLooks()).toHaveLength(0);
  });
});
