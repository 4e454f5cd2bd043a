import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the fake received it. */
export interface XRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  json: Record<string, unknown> | undefined;
  headers: IncomingMessage['headers'];
  status: number;
}

interface Tweet {
  id: string;
  text: string;
  author_id: string;
  conversation_id: string;
  edit_history_tweet_ids: string[];
  mentions: string[];
}

export interface XApiServer {
  /** X_API_BASE_URL. */
  baseUrl: string;
  /** The account's user access token (X_ACCESS_TOKEN). */
  token: string;
  account: { id: string; username: string };
  requests: XRequest[];
  /** A tweet by `author` (a user name) mentioning the account; returns its id. */
  mention(author: string, text: string, inReplyTo?: string): string;
  /** The rate-limit answer of the mentions endpoint: requests left in its window (default 450). */
  mentionsRemaining: number;
  waitFor(match: (request: XRequest) => boolean): Promise<XRequest>;
  close(): Promise<void>;
}

/** The window of every endpoint here: 15 minutes, as X documents it. */
const WINDOW_S = 15 * 60;

/**
 * A local X API v2 (https://docs.x.com/x-api) of the endpoints the client uses: `GET
 * /2/users/by/username/:username`, `GET /2/users/:id/mentions` (newest first, `since_id`,
 * `expansions=author_id` with `includes.users`, `meta.newest_id`/`result_count`) and `POST /2/tweets`
 * with `reply.in_reply_to_tweet_id` (201), bearer user tokens, problem-JSON errors, and the
 * `x-rate-limit-limit/remaining/reset` headers (reset in epoch seconds).
 */
export async function startXApiServer(): Promise<XApiServer> {
  const account = { id: '1500000000000000001', username: 'anima_bot' };
  const token = 'user-context-token';
  const users = new Map<string, { id: string; name: string; username: string }>([[account.username, { ...account, name: 'Anima' }]]);
  const tweets: Tweet[] = [];
  const requests: XRequest[] = [];
  const waiters: Array<{ match: (request: XRequest) => boolean; resolve: (request: XRequest) => void }> = [];
  const state = { mentionsRemaining: 450 };
  let next = 1_800_000_000_000_000_000n;

  const userNamed = (username: string) => {
    const found = users.get(username);
    if (found) return found;
    const user = { id: String(next++), name: username, username };
    users.set(username, user);
    return user;
  };
  const post = (author: string, text: string, inReplyTo?: string) => {
    const id = String(next++);
    const parent = inReplyTo ? tweets.find((tweet) => tweet.id === inReplyTo) : undefined;
    const mentions = [...text.matchAll(/@(\w+)/g)].map((match) => match[1] ?? '');
    tweets.push({ id, text, author_id: author, conversation_id: parent?.conversation_id ?? id, edit_history_tweet_ids: [id], mentions });
    return id;
  };

  const route = (
    method: string,
    path: string,
    query: URLSearchParams,
    json: Record<string, unknown> | undefined,
  ): [number, unknown, Record<string, string>] => {
    const byName = /^\/2\/users\/by\/username\/(\w+)$/.exec(path);
    if (method === 'GET' && byName?.[1]) {
      const user = users.get(byName[1]);
      return user ? [200, { data: user }, {}] : [200, { errors: [{ value: byName[1], detail: 'Could not find user', title: 'Not Found Error' }] }, {}];
    }
    const mentionsOf = /^\/2\/users\/(\d+)\/mentions$/.exec(path);
    if (method === 'GET' && mentionsOf?.[1]) {
      const limits = {
        'x-rate-limit-limit': '450',
        'x-rate-limit-remaining': String(state.mentionsRemaining),
        'x-rate-limit-reset': String(Math.floor(Date.now() / 1000) + WINDOW_S),
      };
      const user = [...users.values()].find((candidate) => candidate.id === mentionsOf[1]);
      const since = query.get('since_id');
      const found = tweets
        .filter((tweet) => user && tweet.mentions.includes(user.username) && (!since || BigInt(tweet.id) > BigInt(since)))
        .reverse()
        .slice(0, Number(query.get('max_results') ?? 10));
      if (found.length === 0) return [200, { meta: { result_count: 0 } }, limits];
      const authors = query.get('expansions')?.split(',').includes('author_id')
        ? { includes: { users: [...new Set(found.map((tweet) => tweet.author_id))].map((id) => [...users.values()].find((u) => u.id === id)) } }
        : {};
      const data = found.map(({ mentions: _mentions, ...tweet }) => tweet);
      return [200, { data, ...authors, meta: { result_count: found.length, newest_id: found[0]?.id, oldest_id: found.at(-1)?.id } }, limits];
    }
    if (method === 'POST' && path === '/2/tweets') {
      const text = typeof json?.text === 'string' ? json.text : '';
      const reply = json?.reply as { in_reply_to_tweet_id?: string } | undefined;
      if (text === '' || [...text].length > 280)
        return [400, { title: 'Invalid Request', detail: 'text is empty or too long', type: 'https://api.twitter.com/2/problems/invalid-request' }, {}];
      if (reply?.in_reply_to_tweet_id && !tweets.some((tweet) => tweet.id === reply.in_reply_to_tweet_id)) {
        return [
          400,
          { title: 'Invalid Request', detail: 'in_reply_to_tweet_id does not exist', type: 'https://api.twitter.com/2/problems/invalid-request' },
          {},
        ];
      }
      const id = post(account.id, text, reply?.in_reply_to_tweet_id);
      return [201, { data: { id, text, edit_history_tweet_ids: [id] } }, {}];
    }
    return [404, { title: 'Not Found Error', detail: `no route ${method} ${path}`, type: 'about:blank', status: 404 }, {}];
  };

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const raw = Buffer.concat(chunks).toString('utf8');
      const json = raw === '' ? undefined : (JSON.parse(raw) as Record<string, unknown>);
      const method = request.method ?? 'GET';
      const [status, body, headers] =
        request.headers.authorization === `Bearer ${token}`
          ? route(method, url.pathname, url.searchParams, json)
          : ([401, { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' }, {}] as const);
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(body));
      const entry: XRequest = { method, path: url.pathname, query: url.searchParams, json, headers: request.headers, status };
      requests.push(entry);
      for (const waiter of [...waiters]) {
        if (waiter.match(entry)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(entry);
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token,
    account,
    requests,
    mention: (author, text, inReplyTo) => post(userNamed(author).id, text, inReplyTo),
    get mentionsRemaining() {
      return state.mentionsRemaining;
    },
    set mentionsRemaining(value) {
      state.mentionsRemaining = value;
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
