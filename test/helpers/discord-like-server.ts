import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';

/**
 * A local server speaking Discord's API v10 (REST and the WebSocket gateway), for the `discord` interface
 * (discord.js pointed at it through its base URL) and the Discord-like `fluxer` one.
 *
 * REST under `${apiBaseUrl}/v<version>` (any version is taken, and recorded), `Authorization: Bot <token>`
 * (401 `{message, code: 0}` otherwise):
 *   GET /gateway, GET /gateway/bot (`url` is this server's gateway, `session_start_limit`), GET /users/@me,
 *   POST /users/@me/channels (open a DM), GET /channels/{id}, POST /channels/{id}/typing (204),
 *   POST /channels/{id}/messages (JSON, or multipart with `payload_json` and `files[n]` parts),
 *   GET /channels/{id}/messages/{id}. Successful answers carry the X-RateLimit-* headers; `fail()` makes the
 *   next calls of a route answer 429 `{message, retry_after, global}` with Retry-After, X-RateLimit-Global
 *   and X-RateLimit-Scope, as Discord does.
 * CDN: `GET /attachments/{channel}/{id}/{filename}` (no token) serves attachments, theirs and the bot's.
 * Gateway (`gatewayUrl`, JSON encoding, no compression): HELLO (10) with `heartbeatIntervalMs`, IDENTIFY (2)
 *   answered by READY then one GUILD_CREATE a guild (a wrong token closes with 4004), HEARTBEAT (1) answered
 *   by HEARTBEAT_ACK (11) unless `acknowledgeHeartbeats` is off, RESUME (6) replaying every dispatch after
 *   the client's sequence then RESUMED (an unknown session gets INVALID_SESSION (9) `false`). The server side
 *   can drop the connection, ask for a RECONNECT (7) or invalidate the session. Dispatches made while a
 *   session has no connection wait in it for its resume, so nothing is lost.
 * The people the tests play act on the state directly (`say`); the bot's own messages are dispatched back
 * as MESSAGE_CREATE too, as on Discord.
 */

export interface DiscordUser {
  id: string;
  username: string;
  discriminator: string;
  global_name: string | null;
  avatar: null;
  bot: boolean;
}

export interface DiscordChannel {
  id: string;
  /** 0 guild text, 1 DM, 11 public thread. */
  type: 0 | 1 | 11;
  name?: string;
  guild_id?: string;
  parent_id?: string;
  recipients?: DiscordUser[];
  position?: number;
  permission_overwrites?: unknown[];
  thread_metadata?: Record<string, unknown>;
}

export interface DiscordGuild {
  id: string;
  name: string;
  channels: DiscordChannel[];
  threads: DiscordChannel[];
}

export interface DiscordAttachment {
  id: string;
  filename: string;
  size: number;
  url: string;
  proxy_url: string;
  content_type?: string;
}

export interface DiscordMessage {
  id: string;
  channel_id: string;
  guild_id?: string;
  author: DiscordUser;
  content: string;
  timestamp: string;
  edited_timestamp: null;
  tts: boolean;
  mention_everyone: boolean;
  mentions: DiscordUser[];
  mention_roles: string[];
  attachments: DiscordAttachment[];
  embeds: unknown[];
  pinned: boolean;
  /** 0 default, 19 reply. */
  type: 0 | 19;
  flags?: number;
  message_reference?: { message_id: string; channel_id: string; guild_id?: string };
  referenced_message?: DiscordMessage | null;
}

/** One REST request as the server understood it. */
export interface RestRequest {
  method: string;
  /** The path after the API prefix and version: `/channels/123/messages`. */
  path: string;
  /** The version of the URL (`10` for `/api/v10/...`), or undefined when it had none. */
  version?: number;
  /** The Authorization header as sent (`Bot <token>`). */
  authorization?: string;
  /** The JSON body, or the `payload_json` of a multipart body. */
  json?: Record<string, unknown>;
  files: Array<{ field: string; filename: string; contentType?: string; bytes: Buffer }>;
  status: number;
  /** When the request arrived (ms since the epoch). */
  at: number;
  /** What the server answered, when it succeeded. */
  result?: unknown;
}

/** A payload the client sent on the gateway. */
export interface GatewayFrame {
  op: number;
  d: unknown;
  /** Which gateway session the connection belonged to when the frame arrived (after IDENTIFY/RESUME). */
  sessionId?: string;
}

export interface RateLimitFailure {
  /** Seconds, as Discord's `retry_after` (fractions allowed). */
  retryAfter: number;
  global?: boolean;
}

export interface DiscordLikeServer {
  /** The server's origin, `http://127.0.0.1:<port>`. */
  origin: string;
  /** The API base without the version (what DISCORD_API_BASE_URL holds): `${origin}/api`. */
  apiBaseUrl: string;
  /** What GET /gateway/bot returns. */
  gatewayUrl: string;
  readonly token: string;
  readonly bot: DiscordUser;
  requests: RestRequest[];
  frames: GatewayFrame[];
  /** The heartbeat interval HELLO announces (set before a connection to change it). */
  heartbeatIntervalMs: number;
  /** Off: heartbeats go unanswered (a zombie connection, which the client must replace). */
  acknowledgeHeartbeats: boolean;
  /** Off: gateway upgrades are refused (the server is out of reach) until it is on again. */
  acceptingConnections: boolean;
  user(username: string): DiscordUser;
  guild(name: string, channelNames?: string[]): DiscordGuild;
  /** A text channel added to a guild (CHANNEL_CREATE when the guild was already sent). */
  channel(guild: DiscordGuild, name: string): DiscordChannel;
  /** A public thread under a text channel (THREAD_CREATE when the guild was already sent). */
  thread(parent: DiscordChannel, name: string): DiscordChannel;
  /** The DM channel between the bot and a person. */
  dm(person: DiscordUser): DiscordChannel;
  /** A person writes in a channel: `<@id>` in the content are mentions; dispatched as MESSAGE_CREATE. */
  say(
    channel: DiscordChannel,
    author: DiscordUser,
    content: string,
    options?: { replyTo?: DiscordMessage; attachments?: Array<{ filename: string; bytes: Buffer; contentType?: string }>; flags?: number },
  ): DiscordMessage;
  /** The messages of a channel, oldest first (the bot's included). */
  messages(channelId: string): DiscordMessage[];
  /** The bytes behind an attachment URL of this server. */
  download(url: string): Buffer | undefined;
  /** The next `times` requests of `method` to a path matching `path` answer 429. */
  fail(method: string, path: RegExp, failure: RateLimitFailure, times?: number): void;
  /** Resolves with the first request (made or to come) that matches. */
  waitFor(match: (request: RestRequest) => boolean): Promise<RestRequest>;
  /** Resolves with the first gateway frame (sent or to come) of `op` that matches. */
  waitForFrame(op: number, match?: (frame: GatewayFrame) => boolean): Promise<GatewayFrame>;
  /** A new token for the bot; the old one gets 401 on REST and 4004 on IDENTIFY. */
  rotateToken(): string;
  /** Closes every live gateway connection abruptly (no close frame); their sessions stay resumable. */
  drop(): void;
  /** Sends RECONNECT (7) on every live connection, and nothing more there. */
  requestReconnect(): void;
  /** Sends INVALID_SESSION (9) `resumable` on every live connection; a non-resumable session is forgotten. */
  invalidateSessions(resumable?: boolean): void;
  /** The gateway sessions identified so far (a resume keeps its session). */
  readonly identifies: number;
  /** Live gateway connections that identified or resumed. */
  readonly liveConnections: number;
  close(): Promise<void>;
}

const DISCORD_EPOCH = 1_420_070_400_000n;

interface Session {
  id: string;
  seq: number;
  /** Every dispatch of the session, for a resume to replay what the client did not see. */
  log: Array<{ op: 0; t: string; s: number; d: unknown }>;
  socket?: WebSocket;
}

interface Failure {
  method: string;
  path: RegExp;
  failure: RateLimitFailure;
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => resolve(Buffer.concat(parts)));
    request.on('error', reject);
  });
}

/** Parses a JSON or multipart body the way Discord takes it (`payload_json` plus `files[n]`). */
async function parseBody(request: IncomingMessage): Promise<Pick<RestRequest, 'json' | 'files'>> {
  const body = await readBody(request);
  const type = request.headers['content-type'] ?? '';
  if (body.length === 0) return { files: [] };
  if (type.startsWith('application/json')) return { json: JSON.parse(body.toString('utf8')) as Record<string, unknown>, files: [] };
  const form = await new Response(body, { headers: { 'content-type': type } }).formData();
  const files: RestRequest['files'] = [];
  let json: Record<string, unknown> | undefined;
  for (const [field, value] of form) {
    if (typeof value === 'string') {
      if (field === 'payload_json') json = JSON.parse(value) as Record<string, unknown>;
    } else files.push({ field, filename: value.name, contentType: value.type || undefined, bytes: Buffer.from(await value.arrayBuffer()) });
  }
  return { json, files };
}

export async function startDiscordLikeServer(options: { botName?: string } = {}): Promise<DiscordLikeServer> {
  let increment = 0n;
  const snowflake = () => (((BigInt(Date.now()) - DISCORD_EPOCH) << 22n) | (increment++ & 0xfffn)).toString();
  const newToken = (id: string) => `${Buffer.from(id).toString('base64url')}.${randomBytes(4).toString('base64url')}.${randomBytes(20).toString('base64url')}`;
  const makeUser = (username: string, bot = false): DiscordUser => ({
    id: snowflake(),
    username,
    discriminator: '0',
    global_name: username,
    avatar: null,
    bot,
  });

  const bot = makeUser(options.botName ?? 'Anima', true);
  let token = newToken(bot.id);
  const users = new Map<string, DiscordUser>([[bot.id, bot]]);
  const guilds = new Map<string, DiscordGuild>();
  const channels = new Map<string, DiscordChannel>();
  const messages = new Map<string, DiscordMessage[]>();
  const files = new Map<string, Buffer>();
  const sessions = new Map<string, Session>();
  const requests: RestRequest[] = [];
  const frames: GatewayFrame[] = [];
  const failures: Failure[] = [];
  const requestWaiters: Array<{ match: (request: RestRequest) => boolean; resolve: (request: RestRequest) => void }> = [];
  const frameWaiters: Array<{ op: number; match: (frame: GatewayFrame) => boolean; resolve: (frame: GatewayFrame) => void }> = [];
  let identifies = 0;
  let origin = '';

  const record = (request: RestRequest) => {
    requests.push(request);
    for (const waiter of [...requestWaiters])
      if (waiter.match(request)) {
        requestWaiters.splice(requestWaiters.indexOf(waiter), 1);
        waiter.resolve(request);
      }
  };
  const recordFrame = (frame: GatewayFrame) => {
    frames.push(frame);
    for (const waiter of [...frameWaiters])
      if (waiter.op === frame.op && waiter.match(frame)) {
        frameWaiters.splice(frameWaiters.indexOf(waiter), 1);
        waiter.resolve(frame);
      }
  };

  const send = (socket: WebSocket | undefined, payload: unknown) => {
    if (socket?.readyState === socket?.OPEN) socket?.send(JSON.stringify(payload));
  };
  const dispatchTo = (session: Session, t: string, d: unknown) => {
    const payload = { op: 0 as const, t, s: ++session.seq, d };
    session.log.push(payload);
    send(session.socket, payload);
  };
  /** Every session hears every event: the fake has one bot, and a dropped session gets it at its resume. */
  const dispatch = (t: string, d: unknown) => {
    for (const session of sessions.values()) dispatchTo(session, t, d);
  };
  const guildPayload = (guild: DiscordGuild) => ({
    id: guild.id,
    name: guild.name,
    icon: null,
    owner_id: bot.id,
    unavailable: false,
    large: false,
    member_count: 1,
    joined_at: new Date().toISOString(),
    roles: [{ id: guild.id, name: '@everyone', permissions: '68608', position: 0, color: 0, hoist: false, managed: false, mentionable: false }],
    emojis: [],
    stickers: [],
    features: [],
    members: [],
    presences: [],
    voice_states: [],
    channels: guild.channels,
    threads: guild.threads,
    premium_tier: 0,
    preferred_locale: 'en-US',
  });

  const addChannel = (channel: DiscordChannel) => {
    channels.set(channel.id, channel);
    messages.set(channel.id, []);
    return channel;
  };

  const storeAttachment = (channelId: string, filename: string, bytes: Buffer, contentType?: string): DiscordAttachment => {
    const id = snowflake();
    const url = `${origin}/attachments/${channelId}/${id}/${encodeURIComponent(filename)}`;
    files.set(new URL(url).pathname, bytes);
    return { id, filename, size: bytes.length, url, proxy_url: url, ...(contentType ? { content_type: contentType } : {}) };
  };

  const postMessage = (
    channel: DiscordChannel,
    author: DiscordUser,
    content: string,
    extra: { attachments?: DiscordAttachment[]; replyTo?: DiscordMessage; flags?: number },
  ): DiscordMessage => {
    const mentioned = [...content.matchAll(/<@!?(\d+)>/g)].flatMap((match) => {
      const user = users.get(match[1] ?? '');
      return user ? [user] : [];
    });
    if (extra.replyTo && !mentioned.some((user) => user.id === extra.replyTo?.author.id)) mentioned.push(extra.replyTo.author);
    const message: DiscordMessage = {
      id: snowflake(),
      channel_id: channel.id,
      ...(channel.guild_id ? { guild_id: channel.guild_id } : {}),
      author,
      content,
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: mentioned,
      mention_roles: [],
      attachments: extra.attachments ?? [],
      embeds: [],
      pinned: false,
      type: extra.replyTo ? 19 : 0,
      ...(extra.flags ? { flags: extra.flags } : {}),
      ...(extra.replyTo
        ? {
            message_reference: { message_id: extra.replyTo.id, channel_id: channel.id, ...(channel.guild_id ? { guild_id: channel.guild_id } : {}) },
            referenced_message: extra.replyTo,
          }
        : {}),
    };
    messages.get(channel.id)?.push(message);
    // The gateway's MESSAGE_CREATE names the channel's type, which is how a client knows a DM it never saw.
    dispatch('MESSAGE_CREATE', { ...message, channel_type: channel.type });
    return message;
  };

  // ---- REST ----

  class RestError extends Error {
    constructor(
      readonly status: number,
      readonly body: Record<string, unknown>,
      readonly headers: Record<string, string> = {},
    ) {
      super(String(body.message));
    }
  }
  const notFound = (what: string) => new RestError(404, { message: `Unknown ${what}`, code: what === 'Channel' ? 10003 : 10008 });
  const channelOf = (id: string) => {
    const channel = channels.get(id);
    if (!channel) throw notFound('Channel');
    return channel;
  };

  const route = (method: string, path: string, request: RestRequest): { status: number; result?: unknown } => {
    const parts = path.split('/').filter(Boolean);
    const is = (verb: string, pattern: string) => {
      const want = pattern.split('/').filter(Boolean);
      return verb === method && want.length === parts.length && want.every((segment, i) => segment.startsWith(':') || segment === parts[i]);
    };
    if (is('GET', '/gateway')) return { status: 200, result: { url: `${origin.replace(/^http/, 'ws')}/gateway` } };
    if (is('GET', '/gateway/bot'))
      return {
        status: 200,
        result: {
          url: `${origin.replace(/^http/, 'ws')}/gateway`,
          shards: 1,
          session_start_limit: { total: 1000, remaining: 1000 - identifies, reset_after: 86_400_000, max_concurrency: 1 },
        },
      };
    if (is('GET', '/users/@me')) return { status: 200, result: bot };
    if (is('POST', '/users/@me/channels')) {
      const person = users.get(String(request.json?.recipient_id));
      if (!person) throw new RestError(400, { message: 'Invalid Form Body', code: 50035 });
      return { status: 200, result: server.dm(person) };
    }
    if (is('GET', '/channels/:id')) return { status: 200, result: channelOf(parts[1] ?? '') };
    if (is('POST', '/channels/:id/typing')) {
      channelOf(parts[1] ?? '');
      return { status: 204 };
    }
    if (is('GET', '/channels/:id/messages/:id')) {
      const found = messages.get(channelOf(parts[1] ?? '').id)?.find((message) => message.id === parts[3]);
      if (!found) throw notFound('Message');
      return { status: 200, result: found };
    }
    if (is('POST', '/channels/:id/messages')) {
      const channel = channelOf(parts[1] ?? '');
      const content = typeof request.json?.content === 'string' ? request.json.content : '';
      if (content.length > 2000)
        throw new RestError(400, {
          message: 'Invalid Form Body',
          code: 50035,
          errors: { content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 2000 or fewer in length.' }] } },
        });
      const described = (request.json?.attachments as Array<{ id: string | number; filename?: string }> | undefined) ?? [];
      const attachments = request.files.map((file, index) => {
        const slot = /^files\[(\d+)\]$/.exec(file.field)?.[1] ?? String(index);
        const filename = described.find((entry) => String(entry.id) === slot)?.filename ?? file.filename;
        return storeAttachment(channel.id, filename, file.bytes, file.contentType);
      });
      if (content === '' && attachments.length === 0) throw new RestError(400, { message: 'Cannot send an empty message', code: 50006 });
      const referenced = request.json?.message_reference as { message_id?: string } | undefined;
      const replyTo = referenced?.message_id ? messages.get(channel.id)?.find((message) => message.id === referenced.message_id) : undefined;
      return { status: 200, result: postMessage(channel, bot, content, { attachments, replyTo }) };
    }
    throw new RestError(404, { message: '404: Not Found', code: 0 });
  };

  const rateLimitHeaders = (remaining: number, resetAfter: number): Record<string, string> => ({
    'x-ratelimit-limit': '5',
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': String(Date.now() / 1000 + resetAfter),
    'x-ratelimit-reset-after': String(resetAfter),
    'x-ratelimit-bucket': 'fake-bucket',
  });

  const handleRest = async (request: IncomingMessage, response: ServerResponse, url: URL) => {
    const match = /^\/api(?:\/v(\d+))?(\/.*)$/.exec(url.pathname);
    const path = match?.[2] ?? url.pathname;
    const method = request.method ?? 'GET';
    const recorded: RestRequest = {
      method,
      path,
      ...(match?.[1] ? { version: Number(match[1]) } : {}),
      ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
      files: [],
      status: 0,
      at: Date.now(),
    };
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      recorded.status = status;
      response.writeHead(status, { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers });
      response.end(body === undefined ? undefined : JSON.stringify(body));
      record(recorded);
    };
    try {
      Object.assign(recorded, await parseBody(request));
      if (request.headers.authorization !== `Bot ${token}`) throw new RestError(401, { message: '401: Unauthorized', code: 0 });
      const failure = failures.find((entry) => entry.method === method && entry.path.test(path));
      if (failure) {
        failures.splice(failures.indexOf(failure), 1);
        const { retryAfter, global = false } = failure.failure;
        throw new RestError(
          429,
          { message: 'You are being rate limited.', retry_after: retryAfter, global },
          {
            ...rateLimitHeaders(0, retryAfter),
            'retry-after': String(Math.ceil(retryAfter)),
            'x-ratelimit-scope': global ? 'global' : 'user',
            ...(global ? { 'x-ratelimit-global': 'true' } : {}),
          },
        );
      }
      const { status, result } = route(method, path, recorded);
      recorded.result = result;
      answer(status, result, rateLimitHeaders(4, 1));
    } catch (error) {
      if (!(error instanceof RestError)) throw error;
      answer(error.status, error.body, error.headers);
    }
  };

  const server0 = createServer((request, response) => {
    const url = new URL(request.url ?? '/', origin);
    const cdn = files.get(url.pathname);
    if (request.method === 'GET' && url.pathname.startsWith('/attachments/')) {
      response.writeHead(cdn ? 200 : 404, { 'content-type': 'application/octet-stream' });
      response.end(cdn);
      return;
    }
    handleRest(request, response, url).catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ message: String(error), code: 0 }));
    });
  });

  // ---- Gateway ----

  const gateway = new WebSocketServer({ noServer: true });
  server0.on('upgrade', (request, socket, head) => {
    if (!server.acceptingConnections || new URL(request.url ?? '/', origin).pathname.replace(/\/$/, '') !== '/gateway') {
      socket.destroy();
      return;
    }
    gateway.handleUpgrade(request, socket, head, (ws) => gateway.emit('connection', ws));
  });
  gateway.on('connection', (socket: WebSocket) => {
    let session: Session | undefined;
    send(socket, { op: 10, d: { heartbeat_interval: server.heartbeatIntervalMs }, s: null, t: null });
    socket.on('close', () => {
      if (session?.socket === socket) session.socket = undefined;
    });
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { op: number; d: Record<string, unknown> | number | null };
      const d = (frame.d ?? {}) as Record<string, unknown>;
      if (frame.op === 1) {
        recordFrame({ op: 1, d: frame.d, sessionId: session?.id });
        if (server.acknowledgeHeartbeats) send(socket, { op: 11, d: null, s: null, t: null });
        return;
      }
      if (frame.op === 2) {
        recordFrame({ op: 2, d: { ...d, token: undefined } });
        if (String(d.token).replace(/^Bot /, '') !== token) {
          socket.close(4004, 'Authentication failed.');
          return;
        }
        identifies++;
        session = { id: randomBytes(16).toString('hex'), seq: 0, log: [], socket };
        sessions.set(session.id, session);
        dispatchTo(session, 'READY', {
          v: 10,
          user: bot,
          guilds: [...guilds.values()].map((guild) => ({ id: guild.id, unavailable: true })),
          session_id: session.id,
          resume_gateway_url: `${origin.replace(/^http/, 'ws')}/gateway`,
          shard: [0, 1],
          application: { id: bot.id, flags: 0 },
        });
        for (const guild of guilds.values()) dispatchTo(session, 'GUILD_CREATE', guildPayload(guild));
        return;
      }
      if (frame.op === 6) {
        recordFrame({ op: 6, d: { ...d, token: undefined }, sessionId: String(d.session_id) });
        const known = sessions.get(String(d.session_id));
        if (!known || String(d.token).replace(/^Bot /, '') !== token) {
          send(socket, { op: 9, d: false, s: null, t: null });
          return;
        }
        known.socket?.terminate();
        known.socket = socket;
        session = known;
        for (const payload of known.log) if (payload.s > Number(d.seq ?? 0)) send(socket, payload);
        dispatchTo(known, 'RESUMED', null);
        return;
      }
      recordFrame({ op: frame.op, d: frame.d, sessionId: session?.id });
    });
  });

  await new Promise<void>((resolve) => server0.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server0.address() as AddressInfo).port}`;
  const liveSockets = () => [...sessions.values()].flatMap((session) => (session.socket ? [session.socket] : []));

  const server: DiscordLikeServer = {
    origin,
    apiBaseUrl: `${origin}/api`,
    gatewayUrl: `${origin.replace(/^http/, 'ws')}/gateway`,
    get token() {
      return token;
    },
    bot,
    requests,
    frames,
    heartbeatIntervalMs: 41_250,
    acknowledgeHeartbeats: true,
    acceptingConnections: true,
    user: (username) => {
      const user = makeUser(username);
      users.set(user.id, user);
      return user;
    },
    guild: (name, channelNames = []) => {
      const guild: DiscordGuild = { id: snowflake(), name, channels: [], threads: [] };
      guilds.set(guild.id, guild);
      for (const channelName of channelNames)
        guild.channels.push(
          addChannel({ id: snowflake(), type: 0, name: channelName, guild_id: guild.id, position: guild.channels.length, permission_overwrites: [] }),
        );
      dispatch('GUILD_CREATE', guildPayload(guild));
      return guild;
    },
    channel: (guild, name) => {
      const channel = addChannel({ id: snowflake(), type: 0, name, guild_id: guild.id, position: guild.channels.length, permission_overwrites: [] });
      guild.channels.push(channel);
      dispatch('CHANNEL_CREATE', channel);
      return channel;
    },
    thread: (parent, name) => {
      const guild = guilds.get(parent.guild_id ?? '');
      if (!guild) throw new Error('a thread needs a guild channel');
      const thread = addChannel({
        id: snowflake(),
        type: 11,
        name,
        guild_id: guild.id,
        parent_id: parent.id,
        thread_metadata: { archived: false, auto_archive_duration: 1440, archive_timestamp: new Date().toISOString(), locked: false },
      });
      guild.threads.push(thread);
      dispatch('THREAD_CREATE', { ...thread, newly_created: true });
      return thread;
    },
    dm: (person) => {
      const existing = [...channels.values()].find((channel) => channel.type === 1 && channel.recipients?.[0]?.id === person.id);
      return existing ?? addChannel({ id: snowflake(), type: 1, recipients: [person] });
    },
    say: (channel, author, content, extra = {}) =>
      postMessage(channel, author, content, {
        ...extra,
        attachments: extra.attachments?.map((file) => storeAttachment(channel.id, file.filename, file.bytes, file.contentType)),
      }),
    messages: (channelId) => messages.get(channelId) ?? [],
    download: (url) => files.get(new URL(url).pathname),
    fail: (method, path, failure, times = 1) => {
      for (let i = 0; i < times; i++) failures.push({ method, path, failure });
    },
    waitFor: (match) => {
      const found = requests.find(match);
      return found ? Promise.resolve(found) : new Promise((resolve) => requestWaiters.push({ match, resolve }));
    },
    waitForFrame: (op, match = () => true) => {
      const found = frames.find((frame) => frame.op === op && match(frame));
      return found ? Promise.resolve(found) : new Promise((resolve) => frameWaiters.push({ op, match, resolve }));
    },
    rotateToken: () => {
      token = newToken(bot.id);
      return token;
    },
    drop: () => {
      for (const socket of liveSockets()) socket.terminate();
    },
    requestReconnect: () => {
      for (const session of sessions.values()) {
        send(session.socket, { op: 7, d: null, s: null, t: null });
        // As on Discord, nothing more is sent on that connection: what comes next waits for the resume.
        session.socket = undefined;
      }
    },
    invalidateSessions: (resumable = false) => {
      for (const session of [...sessions.values()]) {
        send(session.socket, { op: 9, d: resumable, s: null, t: null });
        if (!resumable) sessions.delete(session.id);
      }
    },
    get identifies() {
      return identifies;
    },
    get liveConnections() {
      return liveSockets().length;
    },
    close: async () => {
      for (const client of gateway.clients) client.terminate();
      gateway.close();
      server0.closeAllConnections();
      await new Promise<void>((resolve) => server0.close(() => resolve()));
    },
  };
  return server;
}
