import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import { readBody } from './recording-server.ts';

/**
 * A local Twitch: the EventSub WebSocket server (session_welcome, session_keepalive, notification,
 * session_reconnect, revocation, as https://dev.twitch.tv/docs/eventsub/handling-websocket-events/ documents
 * them) and the Helix endpoints the interface calls (`GET /users`, `POST /eventsub/subscriptions`,
 * `POST /chat/messages`) with Twitch's headers, errors and 429 `Ratelimit-*` headers; the events' payloads are
 * those of https://dev.twitch.tv/docs/eventsub/eventsub-subscription-types/ (a cheer arrives twice, as the
 * chat message and as channel.cheer, as on Twitch). `GET /oauth2/validate` answers for the token
 * (https://dev.twitch.tv/docs/authentication/validate-tokens/): its client, login, scopes, or 401.
 */
export interface TwitchUser {
  id: string;
  login: string;
  display_name: string;
}

export interface HelixRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  json: Record<string, unknown> | undefined;
  clientId: string | undefined;
  authorization: string | undefined;
  status: number;
}

interface Subscription {
  id: string;
  type: string;
  version: string;
  condition: Record<string, string>;
}

interface Session {
  id: string;
  sockets: Set<WebSocket>;
  subscriptions: Subscription[];
}

export interface TwitchServerOptions {
  /** The time `Ratelimit-Reset` is counted from (the test's clock), in milliseconds. */
  now?: () => number;
  keepaliveSeconds?: number;
}

export async function startTwitchServer(options: TwitchServerOptions = {}) {
  const now = options.now ?? Date.now;
  const clientId = 'test-client-id';
  let token = `token-${randomUUID()}`;
  let nextUserId = 1000;
  const users: TwitchUser[] = [];
  const user = (name: string): TwitchUser => {
    const created = { id: String(nextUserId++), login: name.toLowerCase(), display_name: name };
    users.push(created);
    return created;
  };
  const bot = user('AnimaBot');
  const channel = user('StreamerGal');
  const sessions = new Map<string, Session>();
  const requests: HelixRequest[] = [];
  /** The `Authorization` header of each token validation. */
  const validations: string[] = [];
  const sent: Array<{ broadcaster_id: string; sender_id: string; message: string; reply_parent_message_id?: string }> = [];
  /** EventSub types Helix refuses (403), as for a token without their scope. */
  const refused = new Set<string>();
  const limited: RegExp[] = [];
  let connections = 0;
  let closedByClient = 0;

  const frame = (type: string, payload: unknown, extra: Record<string, string> = {}) =>
    JSON.stringify({ metadata: { message_id: randomUUID(), message_type: type, message_timestamp: new Date(now()).toISOString(), ...extra }, payload });
  const sessionPayload = (session: Session, reconnectUrl: string | null = null) => ({
    session: {
      id: session.id,
      status: reconnectUrl ? 'reconnecting' : 'connected',
      keepalive_timeout_seconds: reconnectUrl ? null : (options.keepaliveSeconds ?? 10),
      reconnect_url: reconnectUrl,
      connected_at: new Date(now()).toISOString(),
    },
  });

  const http = createServer((request, response) => void helix(request, response));
  const wss = new WebSocketServer({ noServer: true });
  http.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== '/ws') return socket.destroy();
    wss.handleUpgrade(request, socket, head, (ws) => {
      connections += 1;
      const resumed = url.searchParams.get('reconnect');
      const session = (resumed && sessions.get(resumed)) || { id: randomUUID(), sockets: new Set<WebSocket>(), subscriptions: [] };
      sessions.set(session.id, session);
      session.sockets.add(ws);
      ws.on('close', (code) => {
        session.sockets.delete(ws);
        if (code === 1000) closedByClient += 1;
        // A session without a socket ends, and its subscriptions with it (unless it is moving).
        if (session.sockets.size === 0) sessions.delete(session.id);
      });
      ws.send(frame('session_welcome', sessionPayload(session)));
    });
  });

  /** A JSON body, or undefined for none. */
  const read = async (request: IncomingMessage) => {
    const text = await readBody(request);
    return text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>);
  };

  /** id.twitch.tv's `/oauth2/validate`, for the bot's token. */
  function validate(request: IncomingMessage, response: ServerResponse) {
    validations.push(request.headers.authorization ?? '');
    const valid = request.headers.authorization === `OAuth ${token}`;
    const body = valid
      ? { client_id: clientId, login: bot.login, scopes: ['user:read:chat', 'user:write:chat', 'bits:read'], user_id: bot.id, expires_in: 14_400 }
      : { status: 401, message: 'invalid access token' };
    response.writeHead(valid ? 200 : 401, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }

  async function helix(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname === '/oauth2/validate') return validate(request, response);
    const path = url.pathname.replace(/^\/helix/, '');
    const json = await read(request).catch(() => undefined);
    const record: HelixRequest = {
      method: request.method ?? '',
      path,
      query: url.searchParams,
      json,
      clientId: request.headers['client-id'] as string | undefined,
      authorization: request.headers.authorization,
      status: 0,
    };
    requests.push(record);
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      record.status = status;
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(body));
    };
    const error = (status: number, name: string, message: string) => answer(status, { error: name, status, message });
    if (record.clientId !== clientId) return error(401, 'Unauthorized', 'Client ID and OAuth token do not match');
    if (record.authorization !== `Bearer ${token}`) return error(401, 'Unauthorized', 'Invalid OAuth token');
    const limit = limited.findIndex((pattern) => pattern.test(path));
    if (limit !== -1) {
      limited.splice(limit, 1);
      const reset = String(Math.ceil((now() + 1000) / 1000));
      return answer(
        429,
        { error: 'Too Many Requests', status: 429, message: '' },
        { 'ratelimit-limit': '800', 'ratelimit-remaining': '0', 'ratelimit-reset': reset },
      );
    }
    const headers = { 'ratelimit-limit': '800', 'ratelimit-remaining': '799', 'ratelimit-reset': String(Math.ceil(now() / 1000) + 60) };
    if (request.method === 'GET' && path === '/users') {
      const logins = url.searchParams.getAll('login');
      return answer(200, { data: logins.length === 0 ? [bot] : users.filter((entry) => logins.includes(entry.login)) }, headers);
    }
    if (request.method === 'POST' && path === '/eventsub/subscriptions') {
      const body = json as
        | { type?: string; version?: string; condition?: Record<string, string>; transport?: { method?: string; session_id?: string } }
        | undefined;
      if (!body?.type || !body.version || !body.condition || body.transport?.method !== 'websocket') return error(400, 'Bad Request', 'invalid subscription');
      const session = sessions.get(body.transport.session_id ?? '');
      if (!session) return error(400, 'Bad Request', 'websocket transport session does not exist or has already disconnected');
      if (refused.has(body.type)) return error(403, 'Forbidden', 'subscription missing proper authorization');
      if (session.subscriptions.some((entry) => entry.type === body.type)) return error(409, 'Conflict', 'subscription already exists');
      const subscription = { id: randomUUID(), type: body.type, version: body.version, condition: body.condition };
      session.subscriptions.push(subscription);
      const data = [{ ...subscription, status: 'enabled', transport: body.transport, created_at: new Date(now()).toISOString(), cost: 0 }];
      return answer(202, { data, total: session.subscriptions.length, total_cost: 0, max_total_cost: 10 }, headers);
    }
    if (request.method === 'POST' && path === '/chat/messages') {
      const body = json as { broadcaster_id?: string; sender_id?: string; message?: string; reply_parent_message_id?: string } | undefined;
      if (!body?.broadcaster_id || !body.sender_id || typeof body.message !== 'string') return error(400, 'Bad Request', 'Missing required parameter');
      if (body.message.length > 500) return error(400, 'Bad Request', 'The message is too long');
      if (body.sender_id !== bot.id) return error(403, 'Forbidden', 'The sender must be the user in the token');
      sent.push(body as (typeof sent)[number]);
      const messageId = randomUUID();
      // Twitch shows the account its own message too.
      chat(bot, body.message, { messageId });
      return answer(200, { data: [{ message_id: messageId, is_sent: true, drop_reason: null }] }, headers);
    }
    return error(404, 'Not Found', 'unknown endpoint');
  }

  /** Sends a notification to every session subscribed to `type`. */
  const broadcaster = { broadcaster_user_id: channel.id, broadcaster_user_login: channel.login, broadcaster_user_name: channel.display_name };
  const viewer = (from: TwitchUser) => ({ user_id: from.id, user_login: from.login, user_name: from.display_name });
  const notify = (type: string, event: Record<string, unknown>) => {
    for (const session of sessions.values()) {
      const subscription = session.subscriptions.find((entry) => entry.type === type);
      if (!subscription) continue;
      const text = frame(
        'notification',
        { subscription: { ...subscription, status: 'enabled' }, event },
        { subscription_type: type, subscription_version: subscription.version },
      );
      for (const socket of session.sockets) socket.send(text);
    }
  };

  function chat(from: TwitchUser, text: string, extra: { messageId?: string; bits?: number; mention?: TwitchUser } = {}): string {
    const messageId = extra.messageId ?? randomUUID();
    const fragments = extra.mention
      ? [
          {
            type: 'mention',
            text: `@${extra.mention.login}`,
            mention: { user_id: extra.mention.id, user_login: extra.mention.login, user_name: extra.mention.display_name },
          },
          { type: 'text', text: text.replace(`@${extra.mention.login}`, ''), mention: null },
        ]
      : [{ type: 'text', text, mention: null }];
    notify('channel.chat.message', {
      ...broadcaster,
      chatter_user_id: from.id,
      chatter_user_login: from.login,
      chatter_user_name: from.display_name,
      message_id: messageId,
      message: { text, fragments },
      message_type: 'text',
      badges: [],
      cheer: extra.bits ? { bits: extra.bits } : null,
      color: '#FF0000',
      reply: null,
      channel_points_custom_reward_id: null,
    });
    if (extra.bits) notify('channel.cheer', { is_anonymous: false, ...viewer(from), ...broadcaster, message: text, bits: extra.bits });
    return messageId;
  }

  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  return {
    clientId,
    get token() {
      return token;
    },
    bot,
    channel,
    user,
    apiBaseUrl: `${base}/helix`,
    /** TWITCH_AUTH_BASE_URL. */
    authBaseUrl: `${base}/oauth2`,
    validations,
    eventSubUrl: `ws://127.0.0.1:${port}/ws`,
    requests,
    sent,
    refused,
    get connections() {
      return connections;
    },
    get closedByClient() {
      return closedByClient;
    },
    /** The subscriptions of every live session. */
    subscriptions: () => [...sessions.values()].flatMap((session) => session.subscriptions.map((entry) => entry.type)),
    sessionIds: () => [...sessions.keys()],
    chat,
    follow: (from: TwitchUser) => notify('channel.follow', { ...viewer(from), ...broadcaster, followed_at: new Date(now()).toISOString() }),
    subscribe: (from: TwitchUser, tier = '1000') => notify('channel.subscribe', { ...viewer(from), ...broadcaster, tier, is_gift: false }),
    /** A cheer made anonymously: only channel.cheer tells of it, without the viewer. */
    anonymousCheer: (bits: number, message: string) =>
      notify('channel.cheer', { is_anonymous: true, user_id: null, user_login: null, user_name: null, ...broadcaster, message, bits }),
    raid: (from: TwitchUser, viewers: number) =>
      notify('channel.raid', {
        from_broadcaster_user_id: from.id,
        from_broadcaster_user_login: from.login,
        from_broadcaster_user_name: from.display_name,
        to_broadcaster_user_id: channel.id,
        to_broadcaster_user_login: channel.login,
        to_broadcaster_user_name: channel.display_name,
        viewers,
      }),
    /** A session_keepalive on every socket. */
    keepalive: () => {
      for (const session of sessions.values()) for (const socket of session.sockets) socket.send(frame('session_keepalive', {}));
    },
    /** session_reconnect on every session: its new URL keeps the session and its subscriptions. */
    reconnect: () => {
      for (const session of sessions.values())
        for (const socket of session.sockets)
          socket.send(frame('session_reconnect', sessionPayload(session, `${base.replace('http', 'ws')}/ws?reconnect=${session.id}`)));
    },
    revoke: (type: string, status = 'authorization_revoked') => {
      for (const session of sessions.values()) {
        const subscription = session.subscriptions.find((entry) => entry.type === type);
        if (!subscription) continue;
        session.subscriptions.splice(session.subscriptions.indexOf(subscription), 1);
        for (const socket of session.sockets)
          socket.send(
            frame('revocation', { subscription: { ...subscription, status } }, { subscription_type: type, subscription_version: subscription.version }),
          );
      }
    },
    /** The next Helix call to a matching path answers 429 until the next second. */
    rateLimitNext: (path: RegExp) => limited.push(path),
    /** The token expires or is revoked: a new one is current, the old one refused everywhere. */
    rotateToken: () => {
      token = `token-${randomUUID()}`;
      return token;
    },
    close: async () => {
      for (const client of wss.clients) client.terminate();
      wss.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
export type TwitchServer = Awaited<ReturnType<typeof startTwitchServer>>;
