import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type FakeAnswer, type ReceivedRequest, startRecordingServer } from './recording-server.ts';

/** One request as the fake received it: form bodies decoded. */
export interface RedditRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  form: URLSearchParams;
  headers: IncomingMessage['headers'];
  status: number;
}

/** An item of the inbox as Reddit's listings carry it (`t1` comment, `t4` private message). */
interface InboxItem {
  kind: 't1' | 't4';
  data: Record<string, unknown> & { name: string; new: boolean };
}

export interface RedditServer {
  /** REDDIT_AUTH_BASE_URL (the www.reddit.com of the token endpoint). */
  authBaseUrl: string;
  /** REDDIT_API_BASE_URL (the oauth.reddit.com of every API call). */
  apiBaseUrl: string;
  /** The app's credentials and the account's; the settings to give the interface. */
  account: { clientId: string; clientSecret: string; username: string; password: string };
  requests: RedditRequest[];
  /** A comment that mentions the account (`u/<name>`) on a post of `subreddit`. */
  mention(author: string, subreddit: string, body: string): string;
  /** A reply to one of the account's comments. */
  commentReply(author: string, subreddit: string, body: string): string;
  /** A private message to the account. */
  message(author: string, subject: string, body: string): string;
  /** The rate-limit headers of the next API answers (Reddit counts per 10-minute window); default 100 remaining. */
  rateLimit: { remaining: number; resetS: number };
  /** The first request (now or later) matching. */
  waitFor(match: (request: RedditRequest) => boolean): Promise<RedditRequest>;
  close(): Promise<void>;
}

const id36 = () => BigInt(`0x${randomBytes(5).toString('hex')}`).toString(36);

/**
 * A local Reddit of the documented OAuth2 API (https://github.com/reddit-archive/reddit/wiki/OAuth2, the
 * /dev/api reference): the password grant of a "script" app (Basic auth with the client id and secret,
 * `{"error": "invalid_grant"}` for a wrong password, 401 for a wrong client), then bearer calls to the API
 * host that require a User-Agent: the unread inbox as a Listing of `t1`/`t4` things, `/api/comment`,
 * `/api/compose`, `/api/read_message`, `/api/submit` (form bodies, `api_type=json` answers), with the
 * `X-Ratelimit-Used/Remaining/Reset` headers on every API answer.
 */
export async function startRedditServer(): Promise<RedditServer> {
  const account = { clientId: 'app-id', clientSecret: 'app-secret', username: 'anima_bot', password: 'hunter2' };
  const tokens = new Set<string>();
  const inbox: InboxItem[] = [];
  const state = { rateLimit: { remaining: 100, resetS: 600 } };
  let used = 0;

  const token = (request: Pick<IncomingMessage, 'headers'>, form: URLSearchParams): [number, unknown] => {
    const basic = `Basic ${Buffer.from(`${account.clientId}:${account.clientSecret}`).toString('base64')}`;
    if (request.headers.authorization !== basic) return [401, { message: 'Unauthorized', error: 401 }];
    if (form.get('grant_type') !== 'password') return [200, { error: 'unsupported_grant_type' }];
    if (form.get('username') !== account.username || form.get('password') !== account.password) return [200, { error: 'invalid_grant' }];
    const accessToken = randomBytes(16).toString('hex');
    tokens.add(accessToken);
    return [200, { access_token: accessToken, token_type: 'bearer', expires_in: 86_400, scope: '*' }];
  };

  const api = (method: string, path: string, form: URLSearchParams): [number, unknown] => {
    if (method === 'GET' && path === '/message/unread') {
      const children = inbox.filter((item) => item.data.new);
      return [200, { kind: 'Listing', data: { after: null, dist: children.length, modhash: null, geo_filter: '', children, before: null } }];
    }
    if (method === 'POST' && path === '/api/read_message') {
      const ids = new Set((form.get('id') ?? '').split(','));
      for (const item of inbox) if (ids.has(item.data.name)) item.data.new = false;
      return [200, {}];
    }
    if (method === 'POST' && path === '/api/comment') {
      const id = id36();
      const data = { id, name: `t1_${id}`, parent_id: form.get('thing_id'), body: form.get('text'), author: account.username };
      return [200, { json: { errors: [], data: { things: [{ kind: 't1', data }] } } }];
    }
    if (method === 'POST' && path === '/api/compose') {
      if (!form.get('to') || !form.get('subject')) return [200, { json: { errors: [['NO_SUBJECT', 'please enter a subject', 'subject']] } }];
      return [200, { json: { errors: [], data: {} } }];
    }
    if (method === 'POST' && path === '/api/submit') {
      const id = id36();
      const url = `https://www.reddit.com/r/${form.get('sr')}/comments/${id}/`;
      return [200, { json: { errors: [], data: { url, drafts_count: 0, id, name: `t3_${id}` } } }];
    }
    return [404, { message: 'Not Found', error: 404 }];
  };

  const answer = (request: ReceivedRequest): FakeAnswer => {
    const form = new URLSearchParams(request.body);
    if (request.url.pathname.startsWith('/auth/api/v1/access_token')) {
      const [status, body] = token(request, form);
      return { status, body };
    }
    const path = request.url.pathname.replace(/^\/api-host/, '').replace(/\.json$/, '');
    const bearer = /^bearer (\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    // Reddit refuses (and throttles hard) clients without a User-Agent of their own.
    if (!request.headers['user-agent'] || request.headers['user-agent'].startsWith('node')) {
      return { status: 429, body: { message: 'Too Many Requests', error: 429 } };
    }
    if (!bearer || !tokens.has(bearer)) {
      return { status: 401, body: { message: 'Unauthorized', error: 401 }, headers: { 'www-authenticate': 'Bearer realm="reddit", error="invalid_token"' } };
    }
    used += 1;
    const headers = {
      'x-ratelimit-used': String(used),
      'x-ratelimit-remaining': state.rateLimit.remaining.toFixed(1),
      'x-ratelimit-reset': String(state.rateLimit.resetS),
    };
    const [status, body] = api(request.method, path, form);
    return { status, body, headers };
  };
  const server = await startRecordingServer<RedditRequest>({
    answer,
    record: ({ method, url, headers, body }, status) => ({
      method,
      path: url.pathname,
      query: url.searchParams,
      form: new URLSearchParams(body),
      headers,
      status,
    }),
  });
  const base = server.baseUrl;

  const comment = (author: string, subreddit: string, body: string, type: 'username_mention' | 'comment_reply') => {
    const id = id36();
    const post = id36();
    inbox.push({
      kind: 't1',
      data: {
        id,
        name: `t1_${id}`,
        author,
        body,
        subject: type === 'username_mention' ? 'username mention' : 'comment reply',
        was_comment: true,
        type,
        subreddit,
        link_title: 'A post',
        parent_id: `t3_${post}`,
        context: `/r/${subreddit}/comments/${post}/a_post/${id}/?context=3`,
        created_utc: Math.floor(Date.now() / 1000),
        new: true,
      },
    });
    return `t1_${id}`;
  };

  return {
    authBaseUrl: `${base}/auth`,
    apiBaseUrl: `${base}/api-host`,
    account,
    requests: server.requests,
    mention: (author, subreddit, body) => comment(author, subreddit, body, 'username_mention'),
    commentReply: (author, subreddit, body) => comment(author, subreddit, body, 'comment_reply'),
    message(author, subject, body) {
      const id = id36();
      inbox.push({
        kind: 't4',
        data: { id, name: `t4_${id}`, author, body, subject, was_comment: false, dest: account.username, first_message_name: null, new: true },
      });
      return `t4_${id}`;
    },
    get rateLimit() {
      return state.rateLimit;
    },
    set rateLimit(value) {
      state.rateLimit = value;
    },
    waitFor: server.waitFor,
    close: server.close,
  };
}
