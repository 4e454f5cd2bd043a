import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enableDevComponents } from '../../../src/components/dev-flag.ts';
import { shippedRoots } from '../../helpers/component-roots.ts';
import { ManualClock } from '../../helpers/manual-clock.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../../helpers/openai-server.ts';
import { type RedditRequest, type RedditServer, startRedditServer } from '../../helpers/reddit-server.ts';
import { useTestApp } from '../../helpers/services.ts';

const POLL_S = 30;

describe('the Reddit development interface, against a local Reddit OAuth2 API', () => {
  let reddit: RedditServer;
  let model: FakeOpenAi;
  let clock: ManualClock;
  let log: Array<{ msg: string }>;
  beforeEach(async () => {
    reddit = await startRedditServer();
    model = await startFakeOpenAi();
    clock = new ManualClock();
    log = [];
    enableDevComponents(true);
  });
  afterEach(async () => {
    enableDevComponents(false);
    await reddit.close();
    await model.close();
  });
  const test = useTestApp({
    startInTest: true,
    componentRoots: { interface: shippedRoots.interface, cortex: shippedRoots.cortex, interfaceDev: shippedRoots.interfaceDev },
  });

  const settings = () => ({
    REDDIT_CLIENT_ID: reddit.account.clientId,
    REDDIT_CLIENT_SECRET: reddit.account.clientSecret,
    REDDIT_USERNAME: reddit.account.username,
    REDDIT_PASSWORD: reddit.account.password,
    REDDIT_USER_AGENT: 'linux:anima-test:0.1 (by /u/anima_bot)',
    REDDIT_API_BASE_URL: reddit.apiBaseUrl,
    REDDIT_AUTH_BASE_URL: reddit.authBaseUrl,
    REDDIT_POLL_INTERVAL_S: String(POLL_S),
  });
  const launch = async (environment: Record<string, string> = settings()) => {
    const destination = new PassThrough();
    destination.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) log.push(JSON.parse(line) as { msg: string });
    });
    await test.start({
      environment: { CORTEX_ENGINE: 'openai', OPENAI_BASE_URL: model.baseUrl, ACTIVE_VOX_ENGINE: 'disabled', ...environment },
      logLevel: 'info',
      logDestination: destination,
      clock,
    });
  };
  const entry = async () => {
    const response = await test.app.inject({ method: 'GET', url: '/api/components' });
    return (response.json().interfaces as Array<{ name: string; status: string; reason?: string; dev: boolean; connection?: unknown }>).find(
      (item) => item.name === 'reddit',
    );
  };
  const posted = (path: string, match: (request: RedditRequest) => boolean = () => true) =>
    reddit.waitFor((request) => request.method === 'POST' && request.path.endsWith(path) && request.status === 200 && match(request));
  const polls = () => reddit.requests.filter((request) => request.path.endsWith('/message/unread')).length;

  it('is FAILED, in development, naming the variables it still needs', async () => {
    await launch({ REDDIT_CLIENT_ID: 'x', REDDIT_USER_AGENT: 'ua' });
    expect(await entry()).toMatchObject({
      status: 'FAILED',
      dev: true,
      reason: expect.stringContaining('REDDIT_CLIENT_SECRET, REDDIT_USERNAME, REDDIT_PASSWORD'),
    });
  });

  it('answers a mention with a comment under it and a private message with a message, marking both read', async () => {
    const mention = reddit.mention('sam', 'anima', 'hey u/anima_bot, what is a VRM?');
    const message = reddit.message('olga', 'hello', 'Do you like tea?');
    model.answerFor = (request) => {
      const last = String(request.body.messages?.at(-1)?.content);
      if (last.includes('VRM')) return { kind: 'reply', text: 'A 3D avatar format.' };
      if (last.includes('tea')) return { kind: 'reply', text: 'I love tea.' };
      return undefined;
    };
    await launch();

    const comment = await posted('/api/comment');
    expect(comment.form.get('thing_id')).toBe(mention);
    expect(comment.form.get('text')).toBe('A 3D avatar format.');
    expect(comment.headers['user-agent']).toBe('linux:anima-test:0.1 (by /u/anima_bot)');
    expect(comment.headers.authorization).toMatch(/^bearer [0-9a-f]{32}$/);
    const compose = await posted('/api/compose');
    expect(Object.fromEntries(compose.form)).toMatchObject({ to: 'olga', subject: 're: hello', text: 'I love tea.', api_type: 'json' });
    const read = await posted('/api/read_message');
    expect(read.form.get('id')?.split(',').sort()).toEqual([mention, message].sort());

    const token = reddit.requests.find((request) => request.path.endsWith('/access_token'));
    expect(Object.fromEntries(token?.form ?? [])).toMatchObject({ grant_type: 'password', username: 'anima_bot', password: 'hunter2' });
    await expect.poll(entry).toMatchObject({ status: 'loaded', dev: true, connection: { state: 'connected', detail: 'u/anima_bot' } });
    const history = async () => (await test.harness.services.history.chat.load('reddit/dm/olga')).map((item) => item.text);
    await expect.poll(history).toEqual(['Do you like tea?', 'I love tea.']);

    // The next look, one interval later, finds the inbox read and answers nothing twice.
    clock.advance(POLL_S * 1000);
    await expect.poll(polls).toBe(2);
    expect(reddit.requests.filter((request) => request.path.endsWith('/api/comment'))).toHaveLength(1);
  });

  it('waits for the rate-limit window to reset once the API says none remain', async () => {
    reddit.rateLimit = { remaining: 0, resetS: 240 };
    reddit.commentReply('sam', 'anima', 'and what about you?');
    model.script({ kind: 'reply', text: 'Me? I am fine.' });
    await launch();

    // Both requests wait: marking the inbox read, and the comment once the model has answered (the engine's
    // own deadlines run on the same clock, so the 240 s jump comes only after its answer is whole).
    const held = () => log.filter((line) => line.msg.startsWith('Reddit rate limit spent')).length;
    await expect.poll(held).toBe(2);
    expect(reddit.requests.filter((request) => request.method === 'POST')).toHaveLength(1); // the token request alone
    reddit.rateLimit = { remaining: 99, resetS: 600 };
    clock.advance(240_000);
    expect((await posted('/api/comment')).form.get('text')).toBe('Me? I am fine.');
  });

  it('reports a refused login as disconnected and stops polling', async () => {
    await launch({ ...settings(), REDDIT_PASSWORD: 'wrong' });
    await expect.poll(entry).toMatchObject({ connection: { state: 'disconnected', detail: expect.stringContaining('invalid_grant') } });
    expect(polls()).toBe(0);
  });
});
