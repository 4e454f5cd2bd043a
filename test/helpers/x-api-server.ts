import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type FakeAnswer, type ReceivedRequest, startRecordingServer } from './recording-server.ts';

/** One request as the fake received it. */
export interface XRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  json: Record<string, unknown> | undefined;
  /** The raw body (the token endpoint's form). */
  body: string;
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
  /** The account's user access token (X_ACCESS_TOKEN): a new one after each refresh. */
  readonly token: string;
  /** The app's confidential client (X_CLIENT_ID, X_CLIENT_SECRET) and the refresh token X gave last. */
  oauthClient: { clientId: string; clientSecret: string; readonly refreshToken: string };
  /** The access token expires: X answers 401 to it from now on. */
  expireToken(): void;
  /** The user revoked the app: every refresh token is refused. */
  revokeRefreshToken(): void;
  account: { id: string; username: string };
  requests: XRequest[];
  /** A tweet by `author` (a user name) mentioning the account; returns its id. */
  mention(author: string, text: string, inReplyTo?: string): string;
  /** The rate-limit answer of the mentions endpoint: requests left in its window (default 450). */
  mentionsRemaining: number;
  waitFor(match: (request: XRequest) => boolean): Promise<XRequest>;
  close(): Promise<void>;
}

/** A JSON body, or undefined for none (or a form). */
function jsonOf(body: string): Record<string, unknown> | undefined {
  try {
    return body === '' ? undefined : (JSON.parse(body) as Record<string, unknown>);
  } catch {
    return undefined;
  }
}

/** The window of every endpoint here: 15 minutes, as X documents it. */
const WINDOW_S = 15 * 60;

/**
 * A local X API v2 (https://docs.x.com/x-api) of the endpoints the client uses: `GET
 * /2/users/by/username/:username`, `GET /2/users/:id/mentions` (newest first, `since_id`,
 * `expansions=author_id` with `includes.users`, `meta.newest_id`/`result_count`) and `POST /2/tweets`
 * with `reply.in_reply_to_tweet_id` (201), bearer user tokens, problem-JSON errors, and the
 * `x-rate-limit-limit/remaining/reset` headers (reset in epoch seconds); and the OAuth 2.0 token endpoint
 * `POST /2/oauth2/token` for the refresh_token grant of a confidential client (HTTP Basic), which answers a
 * new access token and a new refresh token and voids the one used (X rotates them).
 */
export async function startXApiServer(): Promise<XApiServer> {
  const account = { id: '1500000000000000001', username: 'anima_bot' };
  let token = 'user-context-token';
  const client = { clientId: 'x-client-id', clientSecret: 'x-client-secret' };
  let refreshToken = `refresh-${randomUUID()}`;
  let refreshRevoked = false;
  const users = new Map<string, { id: string; name: string; username: string }>([[account.username, { ...account, name: 'Anima' }]]);
  const tweets: Tweet[] = [];
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

  /** The refresh_token grant, as X documents it for a confidential client. */
  const refresh = (request: Pick<IncomingMessage, 'headers'>, form: URLSearchParams): FakeAnswer => {
    const basic = `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`;
    if (request.headers.authorization !== basic)
      return { status: 401, body: { error: 'unauthorized_client', error_description: 'Missing valid authorization header' } };
    if (form.get('grant_type') !== 'refresh_token' || form.get('refresh_token') !== refreshToken || refreshRevoked)
      return { status: 400, body: { error: 'invalid_request', error_description: 'Value passed for the token was invalid.' } };
    token = `access-${randomUUID()}`;
    refreshToken = `refresh-${randomUUID()}`;
    const body = {
      token_type: 'bearer',
      expires_in: 7200,
      access_token: token,
      scope: 'tweet.read tweet.write users.read offline.access',
      refresh_token: refreshToken,
    };
    return { status: 200, body };
  };
  const answer = (request: ReceivedRequest): FakeAnswer => {
    if (request.method === 'POST' && request.url.pathname === '/2/oauth2/token') return refresh(request, new URLSearchParams(request.body));
    if (request.headers.authorization !== `Bearer ${token}`)
      return { status: 401, body: { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' } };
    const [status, body, headers] = route(request.method, request.url.pathname, request.url.searchParams, jsonOf(request.body));
    return { status, body, headers };
  };
  const server = await startRecordingServer<XRequest>({
    answer,
    record: ({ method, url, headers, body }, status) => ({
      method,
      path: url.pathname,
      query: url.searchParams,
      json: jsonOf(body),
      body,
      headers,
      status,
    }),
  });
  return {
    baseUrl: server.baseUrl,
    get token() {
      return token;
    },
    oauthClient: {
      ...client,
      get refreshToken() {
        return refreshToken;
      },
    },
    expireToken: () => {
      token = `access-${randomUUID()}`;
    },
    revokeRefreshToken: () => {
      refreshRevoked = true;
    },
    account,
    requests: server.requests,
    mention: (author, text, inReplyTo) => post(userNamed(author).id, text, inReplyTo),
    get mentionsRemaining() {
      return state.mentionsRemaining;
    },
    set mentionsRemaining(value) {
      state.mentionsRemaining = value;
    },
    waitFor: server.waitFor,
    close: server.close,
  };
}
