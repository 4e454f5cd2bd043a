import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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

const json = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers }).end(JSON.stringify(body));

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
  const requests: RedditRequest[] = [];
  const waiters: Array<{ match: (request: RedditRequest) => boolean; resolve: (request: RedditRequest) => void }> = [];
  const state = { rateLimit: { remaining: 100, resetS: 600 } };
  let used = 0;

  const record = (request: RedditRequest) => {
    requests.push(request);
    for (const waiter of [...waiters]) {
      if (waiter.match(request)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(request);
      }
    }
  };

  const token = (request: IncomingMessage, form: URLSearchParams): [number, unknown] => {
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

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const method = request.method ?? 'GET';
      const entry = (status: number): RedditRequest => ({ method, path: url.pathname, query: url.searchParams, form, headers: request.headers, status });
      if (url.pathname.startsWith('/auth/api/v1/access_token')) {
        const [status, body] = token(request, form);
        json(response, status, body);
        return record(entry(status));
      }
      const path = url.pathname.replace(/^\/api-host/, '').replace(/\.json$/, '');
      const bearer = /^bearer (\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
      // Reddit refuses (and throttles hard) clients without a User-Agent of their own.
      if (!request.headers['user-agent'] || request.headers['user-agent'].startsWith('node')) {
        json(response, 429, { message: 'Too Many Requests', error: 429 });
        return record(entry(429));
      }
      if (!bearer || !tokens.has(bearer)) {
        json(response, 401, { message: 'Unauthorized', error: 401 }, { 'www-authenticate': 'Bearer realm="reddit", error="invalid_token"' });
        return record(entry(401));
      }
      used += 1;
      const limits = {
        'x-ratelimit-used': String(used),
        'x-ratelimit-remaining': state.rateLimit.remaining.toFixed(1),
        'x-ratelimit-reset': String(state.rateLimit.resetS),
      };
      const [status, body] = api(method, path, form);
      json(response, status, body, limits);
      record(entry(status));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

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
    requests,
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
    waitFor(match) {
      const found = requests.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
