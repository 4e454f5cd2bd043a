import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { ConnectionReport } from '../../src/components/contract.ts';
import { fixtureRoots } from './component-roots.ts';
import { createTestServices, type TestServices } from './services.ts';

/**
 * A homeserver speaking the Matrix Client-Server API (v3) on a local port, for the `matrix` interface's
 * tests: password login, whoami, /sync with `since` and a long-poll `timeout`, invites and joins, send
 * (idempotent per transaction id), typing, receipts, room events and members, profiles, filters, push
 * rules, capabilities, media upload and download (legacy and authenticated), with the spec's error shapes
 * (`{errcode, error}`, M_LIMIT_EXCEEDED with `retry_after_ms` and Retry-After). The people the tests play
 * act on its state directly; only the client under test speaks HTTP.
 */

export interface RoomEvent {
  event_id: string;
  room_id: string;
  type: string;
  sender: string;
  origin_server_ts: number;
  content: Record<string, unknown>;
  state_key?: string;
  /** The stream position the event was stored at (what a sync token counts). */
  position: number;
}

export interface Failure {
  status: number;
  errcode: string;
  error: string;
  retryAfterMs?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** The user of the access token the request carried, if valid. */
  userId?: string;
  token?: string;
}

interface Route {
  method: string;
  segments: string[];
  auth: 'required' | 'none';
  handle(call: Call): Promise<Reply> | Reply;
}

interface Call {
  params: Record<string, string>;
  query: URLSearchParams;
  body: Buffer;
  headers: IncomingMessage['headers'];
  /** The authenticated user, for routes that require one. */
  session: Session;
  signal: AbortSignal;
}

interface Reply {
  status?: number;
  json?: unknown;
  bytes?: { data: Buffer; contentType: string; fileName?: string };
}

interface Session {
  userId: string;
  deviceId: string;
  token: string;
}

interface Room {
  id: string;
  events: RoomEvent[];
  /** Current state: `${type}\u0000${state_key}` → event. */
  state: Map<string, RoomEvent>;
}

interface Media {
  data: Buffer;
  contentType: string;
  fileName?: string;
}

class MatrixError extends Error {
  constructor(
    readonly status: number,
    readonly errcode: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

const CLIENT = '/_matrix/client/v3';
const SPEC_VERSIONS = ['r0.6.1', 'v1.1', 'v1.2', 'v1.3', 'v1.4', 'v1.5', 'v1.6', 'v1.7', 'v1.8', 'v1.9', 'v1.10', 'v1.11'];
const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
const DEFAULT_TIMELINE_LIMIT = 10;
/** State an invite shows (the spec's stripped state). */
const INVITE_STATE = new Set(['m.room.create', 'm.room.name', 'm.room.join_rules', 'm.room.encryption', 'm.room.member']);

const opaque = () => randomBytes(9).toString('base64url');
const stateKeyOf = (type: string, stateKey: string) => `${type}\u0000${stateKey}`;

export class MatrixHomeserver {
  readonly serverName = 'anima.test';
  readonly requests: RecordedRequest[] = [];
  readonly typing: Array<{ roomId: string; userId: string; typing: boolean; timeout?: number }> = [];
  readonly receipts: Array<{ roomId: string; userId: string; receiptType: string; eventId: string }> = [];
  baseUrl = '';
  private readonly users = new Map<string, { password?: string; displayName: string }>();
  private readonly sessions = new Map<string, Session>();
  private readonly rooms = new Map<string, Room>();
  private readonly media = new Map<string, Media>();
  private readonly filters = new Map<string, unknown>();
  private readonly transactions = new Map<string, string>();
  private readonly failures: Array<{ method: string; path: RegExp; failure: Failure }> = [];
  private readonly changes = new EventEmitter();
  private readonly server = createServer((request, response) => void this.serve(request, response));
  private readonly routes: Route[];
  private position = 0;

  constructor() {
    this.changes.setMaxListeners(0);
    this.routes = this.buildRoutes();
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // --- what the tests do as the people of this server ---

  registerUser(localpart: string, options: { password?: string; displayName?: string } = {}): string {
    const userId = `@${localpart}:${this.serverName}`;
    this.users.set(userId, { password: options.password, displayName: options.displayName ?? localpart });
    return userId;
  }

  /** An access token made elsewhere (another client's login), as MATRIX_ACCESS_TOKEN holds one. */
  issueToken(userId: string): string {
    const session = { userId, deviceId: opaque().toUpperCase(), token: `syt_${opaque()}` };
    this.sessions.set(session.token, session);
    return session.token;
  }

  revokeToken(token: string): void {
    this.sessions.delete(token);
    this.changed();
  }

  createRoom(creator: string, options: { name?: string; encrypted?: boolean } = {}): string {
    const roomId = `!${opaque()}:${this.serverName}`;
    this.rooms.set(roomId, { id: roomId, events: [], state: new Map() });
    this.store(roomId, creator, 'm.room.create', { creator, room_version: '10' }, '');
    this.store(roomId, creator, 'm.room.member', { membership: 'join', displayname: this.displayName(creator) }, creator);
    this.store(roomId, creator, 'm.room.join_rules', { join_rule: 'invite' }, '');
    if (options.name) this.store(roomId, creator, 'm.room.name', { name: options.name }, '');
    if (options.encrypted) this.store(roomId, creator, 'm.room.encryption', { algorithm: 'm.megolm.v1.aes-sha2' }, '');
    return roomId;
  }

  invite(roomId: string, inviter: string, invitee: string): RoomEvent {
    return this.store(roomId, inviter, 'm.room.member', { membership: 'invite', displayname: this.displayName(invitee) }, invitee);
  }

  join(roomId: string, userId: string): RoomEvent {
    return this.store(roomId, userId, 'm.room.member', { membership: 'join', displayname: this.displayName(userId) }, userId);
  }

  /** A room event from `sender` (a message by default); returns its id. */
  send(roomId: string, sender: string, content: Record<string, unknown>, type = 'm.room.message'): string {
    if (this.membership(roomId, sender) !== 'join') throw new Error(`${sender} is not in ${roomId}`);
    return this.store(roomId, sender, type, content).event_id;
  }

  upload(data: Buffer, contentType: string, fileName?: string): string {
    const mediaId = opaque();
    this.media.set(mediaId, { data, contentType, ...(fileName ? { fileName } : {}) });
    return `mxc://${this.serverName}/${mediaId}`;
  }

  /** The bytes behind an `mxc://` URL of this server. */
  download(mxc: string): Media {
    const found = this.media.get(mxc.replace(`mxc://${this.serverName}/`, ''));
    if (!found) throw new Error(`no media ${mxc}`);
    return found;
  }

  membership(roomId: string, userId: string): string | undefined {
    return this.rooms.get(roomId)?.state.get(stateKeyOf('m.room.member', userId))?.content.membership as string | undefined;
  }

  events(roomId: string): RoomEvent[] {
    return [...(this.rooms.get(roomId)?.events ?? [])];
  }

  /** The next requests matching `method` and `path` fail with `failure`, once each. */
  failNext(method: string, path: RegExp, failure: Failure, times = 1): void {
    for (let index = 0; index < times; index += 1) this.failures.push({ method, path, failure });
  }

  /** Resolves with the first non-undefined value of `probe`, checked now and after every change here. */
  until<T>(probe: () => T | undefined, what = 'the condition', timeoutMs = 15_000): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const value = probe();
        if (value === undefined) return;
        cleanUp();
        resolve(value);
      };
      const timer = setTimeout(() => {
        cleanUp();
        reject(new Error(`the homeserver did not see ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      const cleanUp = () => {
        clearTimeout(timer);
        this.changes.off('change', check);
      };
      this.changes.on('change', check);
      check();
    });
  }

  /** The first event of `roomId` from `sender` after `afterPosition` that `match` accepts. */
  nextEvent(roomId: string, sender: string, afterPosition: number, match: (event: RoomEvent) => boolean = () => true, timeoutMs?: number): Promise<RoomEvent> {
    return this.until(
      () => this.rooms.get(roomId)?.events.find((event) => event.position > afterPosition && event.sender === sender && match(event)),
      `an event from ${sender} in ${roomId}`,
      timeoutMs,
    );
  }

  get streamPosition(): number {
    return this.position;
  }

  // --- the state and its stream ---

  private displayName(userId: string): string {
    return this.users.get(userId)?.displayName ?? userId;
  }

  private store(roomId: string, sender: string, type: string, content: Record<string, unknown>, stateKey?: string): RoomEvent {
    const room = this.rooms.get(roomId);
    if (!room) throw new MatrixError(404, 'M_NOT_FOUND', 'Unknown room');
    this.position += 1;
    const event: RoomEvent = {
      event_id: `$${opaque()}${opaque()}`,
      room_id: roomId,
      type,
      sender,
      origin_server_ts: Date.now(),
      content,
      ...(stateKey === undefined ? {} : { state_key: stateKey }),
      position: this.position,
    };
    room.events.push(event);
    if (stateKey !== undefined) room.state.set(stateKeyOf(type, stateKey), event);
    this.changed();
    return event;
  }

  private changed(): void {
    this.changes.emit('change');
  }

  private clientEvent(event: RoomEvent, session: Session, withRoomId = false): Record<string, unknown> {
    const { position: _position, room_id, ...fields } = event;
    const transactionId = this.transactions.get(`${session.token}\u0000event\u0000${event.event_id}`);
    return {
      ...fields,
      ...(withRoomId ? { room_id } : {}),
      unsigned: { age: Date.now() - event.origin_server_ts, ...(transactionId ? { transaction_id: transactionId } : {}) },
    };
  }

  private strippedState(room: Room) {
    return [...room.state.values()]
      .filter((event) => INVITE_STATE.has(event.type))
      .map((event) => ({ type: event.type, state_key: event.state_key, sender: event.sender, content: event.content }));
  }

  private timelineLimit(filter: string | null): number {
    if (!filter) return DEFAULT_TIMELINE_LIMIT;
    const definition = (filter.startsWith('{') ? JSON.parse(filter) : this.filters.get(filter)) as { room?: { timeline?: { limit?: number } } } | undefined;
    return definition?.room?.timeline?.limit ?? DEFAULT_TIMELINE_LIMIT;
  }

  /** One /sync answer at the current position, or undefined when nothing happened since `since`. */
  private syncAnswer(session: Session, since: number | undefined, limit: number): Record<string, unknown> | undefined {
    const join: Record<string, unknown> = {};
    const invite: Record<string, unknown> = {};
    for (const room of this.rooms.values()) {
      const member = room.state.get(stateKeyOf('m.room.member', session.userId));
      const membership = member?.content.membership;
      if (membership === 'invite' && member && (since === undefined || member.position > since)) {
        invite[room.id] = { invite_state: { events: this.strippedState(room) } };
      }
      if (membership !== 'join' || !member) continue;
      const fresh = since === undefined || member.position > since;
      const newer = room.events.filter((event) => since === undefined || event.position > since);
      if (!fresh && newer.length === 0) continue;
      const timeline = fresh ? room.events.slice(-limit) : newer;
      const inTimeline = new Set(timeline.map((event) => event.event_id));
      const state = fresh ? [...room.state.values()].filter((event) => !inTimeline.has(event.event_id)) : [];
      join[room.id] = {
        timeline: {
          events: timeline.map((event) => this.clientEvent(event, session)),
          limited: fresh && room.events.length > timeline.length,
          prev_batch: `p${(timeline[0]?.position ?? this.position) - 1}`,
        },
        state: { events: state.map((event) => this.clientEvent(event, session)) },
        ephemeral: { events: [] },
        account_data: { events: [] },
        unread_notifications: { highlight_count: 0, notification_count: 0 },
      };
    }
    if (since !== undefined && Object.keys(join).length === 0 && Object.keys(invite).length === 0) return undefined;
    return {
      next_batch: `s${this.position}`,
      rooms: { join, invite, leave: {}, knock: {} },
      presence: { events: [] },
      account_data: { events: [] },
      to_device: { events: [] },
      device_lists: { changed: [], left: [] },
    };
  }

  private async sync(call: Call): Promise<Reply> {
    const since = call.query.get('since');
    const position = since === null ? undefined : Number(since.replace(/^s/, ''));
    if (position !== undefined && !Number.isInteger(position)) throw new MatrixError(400, 'M_INVALID_PARAM', 'Invalid since token');
    const limit = this.timelineLimit(call.query.get('filter'));
    const deadline = Date.now() + Math.max(0, Number(call.query.get('timeout') ?? 0));
    for (;;) {
      // A token revoked while its long poll waits ends it, as the next request would.
      if (!this.sessions.has(call.session.token)) throw new MatrixError(401, 'M_UNKNOWN_TOKEN', 'Unrecognised access token', { soft_logout: false });
      const answer = this.syncAnswer(call.session, position, limit);
      if (answer) return { json: answer };
      const left = deadline - Date.now();
      if (left <= 0 || call.signal.aborted) return { json: { next_batch: `s${this.position}`, rooms: { join: {}, invite: {}, leave: {}, knock: {} } } };
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.changes.off('change', done);
          call.signal.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, left);
        this.changes.on('change', done);
        call.signal.addEventListener('abort', done);
      });
    }
  }

  // --- HTTP ---

  private json(call: Call): Record<string, unknown> {
    if (call.body.length === 0) return {};
    try {
      const parsed: unknown = JSON.parse(call.body.toString('utf8'));
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      // Answered below with the spec's code.
    }
    throw new MatrixError(400, 'M_NOT_JSON', 'Content not JSON.');
  }

  private room(roomId: string): Room {
    const room = this.rooms.get(roomId);
    if (!room) throw new MatrixError(404, 'M_NOT_FOUND', 'Unknown room');
    return room;
  }

  private joined(roomId: string, userId: string): Room {
    const room = this.room(roomId);
    if (this.membership(roomId, userId) !== 'join') throw new MatrixError(403, 'M_FORBIDDEN', `User ${userId} not in room ${roomId}`);
    return room;
  }

  private mediaReply(call: Call): Reply {
    if (call.params.serverName !== this.serverName) throw new MatrixError(404, 'M_NOT_FOUND', 'Not found');
    const found = this.media.get(call.params.mediaId ?? '');
    if (!found) throw new MatrixError(404, 'M_NOT_FOUND', 'Not found');
    return { bytes: { data: found.data, contentType: found.contentType, fileName: found.fileName } };
  }

  private login(call: Call): Reply {
    const body = this.json(call);
    if (body.type !== 'm.login.password') throw new MatrixError(400, 'M_UNKNOWN', 'Unknown login type');
    const identifier = body.identifier as { type?: string; user?: string } | undefined;
    const name = identifier?.type === 'm.id.user' ? identifier.user : (body.user as string | undefined);
    const userId = name?.startsWith('@') ? name : `@${name}:${this.serverName}`;
    const user = this.users.get(userId);
    if (!user?.password || user.password !== body.password) throw new MatrixError(403, 'M_FORBIDDEN', 'Invalid username or password');
    const token = this.issueToken(userId);
    const session = this.sessions.get(token) as Session;
    return { json: { user_id: userId, access_token: token, device_id: session.deviceId, home_server: this.serverName } };
  }

  private buildRoutes(): Route[] {
    const route = (spec: string, auth: Route['auth'], handle: Route['handle']): Route => {
      const [method = '', path = ''] = spec.split(' ');
      return { method, segments: path.split('/').slice(1), auth, handle };
    };
    const ok = { json: {} };
    const download = (call: Call) => this.mediaReply(call);
    return [
      route('GET /_matrix/client/versions', 'none', () => ({ json: { versions: SPEC_VERSIONS, unstable_features: {} } })),
      route(`GET ${CLIENT}/login`, 'none', () => ({ json: { flows: [{ type: 'm.login.password' }] } })),
      route(`POST ${CLIENT}/login`, 'none', (call) => this.login(call)),
      route(`POST ${CLIENT}/logout`, 'required', (call) => {
        this.revokeToken(call.session.token);
        return ok;
      }),
      route(`GET ${CLIENT}/account/whoami`, 'required', ({ session }) => ({
        json: { user_id: session.userId, device_id: session.deviceId, is_guest: false },
      })),
      route(`GET ${CLIENT}/capabilities`, 'required', () => ({
        json: { capabilities: { 'm.change_password': { enabled: true }, 'm.room_versions': { default: '10', available: { '10': 'stable' } } } },
      })),
      route(`GET ${CLIENT}/pushrules/`, 'required', () => ({
        json: { global: { override: [], content: [], room: [], sender: [], underride: [] } },
      })),
      route(`POST ${CLIENT}/user/:userId/filter`, 'required', (call) => {
        if (call.params.userId !== call.session.userId) throw new MatrixError(403, 'M_FORBIDDEN', 'Cannot create filters for other users');
        const filterId = String(this.filters.size + 1);
        this.filters.set(filterId, this.json(call));
        return { json: { filter_id: filterId } };
      }),
      route(`GET ${CLIENT}/user/:userId/filter/:filterId`, 'required', (call) => {
        const filter = this.filters.get(call.params.filterId ?? '');
        if (!filter) throw new MatrixError(404, 'M_NOT_FOUND', 'No such filter');
        return { json: filter };
      }),
      route(`GET ${CLIENT}/sync`, 'required', (call) => this.sync(call)),
      route(`GET ${CLIENT}/profile/:userId`, 'required', (call) => {
        const user = this.users.get(call.params.userId ?? '');
        if (!user) throw new MatrixError(404, 'M_NOT_FOUND', 'Profile was not found');
        return { json: { displayname: user.displayName } };
      }),
      route(`POST ${CLIENT}/join/:roomId`, 'required', (call) => this.acceptInvite(call)),
      route(`POST ${CLIENT}/rooms/:roomId/join`, 'required', (call) => this.acceptInvite(call)),
      route(`PUT ${CLIENT}/rooms/:roomId/send/:eventType/:txnId`, 'required', (call) => this.sendFromClient(call)),
      route(`PUT ${CLIENT}/rooms/:roomId/typing/:userId`, 'required', (call) => {
        if (call.params.userId !== call.session.userId) throw new MatrixError(403, 'M_FORBIDDEN', 'Cannot set typing for another user');
        const roomId = call.params.roomId ?? '';
        this.joined(roomId, call.session.userId);
        const body = this.json(call);
        if (typeof body.typing !== 'boolean') throw new MatrixError(400, 'M_BAD_JSON', 'typing must be a boolean');
        this.typing.push({ roomId, userId: call.session.userId, typing: body.typing, ...(typeof body.timeout === 'number' ? { timeout: body.timeout } : {}) });
        this.changed();
        return ok;
      }),
      route(`POST ${CLIENT}/rooms/:roomId/receipt/:receiptType/:eventId`, 'required', (call) => {
        const { roomId = '', receiptType = '', eventId = '' } = call.params;
        const room = this.joined(roomId, call.session.userId);
        if (!['m.read', 'm.read.private', 'm.fully_read'].includes(receiptType)) throw new MatrixError(400, 'M_INVALID_PARAM', 'Unknown receipt type');
        if (!room.events.some((event) => event.event_id === eventId)) throw new MatrixError(404, 'M_NOT_FOUND', 'Unknown event');
        this.receipts.push({ roomId, userId: call.session.userId, receiptType, eventId });
        this.changed();
        return ok;
      }),
      route(`GET ${CLIENT}/rooms/:roomId/event/:eventId`, 'required', (call) => {
        const room = this.joined(call.params.roomId ?? '', call.session.userId);
        const event = room.events.find((candidate) => candidate.event_id === call.params.eventId);
        if (!event) throw new MatrixError(404, 'M_NOT_FOUND', 'Event not found.');
        return { json: this.clientEvent(event, call.session, true) };
      }),
      route(`GET ${CLIENT}/rooms/:roomId/joined_members`, 'required', (call) => {
        const room = this.joined(call.params.roomId ?? '', call.session.userId);
        const joined = [...room.state.values()].filter((event) => event.type === 'm.room.member' && event.content.membership === 'join');
        return {
          json: { joined: Object.fromEntries(joined.map((event) => [event.state_key, { display_name: event.content.displayname ?? null, avatar_url: null }])) },
        };
      }),
      route('GET /_matrix/media/v3/config', 'required', () => ({ json: { 'm.upload.size': MAX_UPLOAD_BYTES } })),
      route('GET /_matrix/client/v1/media/config', 'required', () => ({ json: { 'm.upload.size': MAX_UPLOAD_BYTES } })),
      route('POST /_matrix/media/v3/upload', 'required', (call) => {
        if (call.body.length > MAX_UPLOAD_BYTES) throw new MatrixError(413, 'M_TOO_LARGE', 'Upload request body is too large');
        const fileName = call.query.get('filename') ?? undefined;
        return { json: { content_uri: this.upload(call.body, call.headers['content-type'] ?? 'application/octet-stream', fileName) } };
      }),
      route('GET /_matrix/media/v3/download/:serverName/:mediaId', 'none', download),
      route('GET /_matrix/media/v3/download/:serverName/:mediaId/:fileName', 'none', download),
      route('GET /_matrix/client/v1/media/download/:serverName/:mediaId', 'required', download),
      route('GET /_matrix/client/v1/media/download/:serverName/:mediaId/:fileName', 'required', download),
    ];
  }

  private acceptInvite(call: Call): Reply {
    const roomId = call.params.roomId ?? '';
    const membership = this.membership(roomId, call.session.userId);
    if (membership !== 'invite' && membership !== 'join') throw new MatrixError(403, 'M_FORBIDDEN', 'You are not invited to this room.');
    if (membership === 'invite') this.join(roomId, call.session.userId);
    return { json: { room_id: roomId } };
  }

  private sendFromClient(call: Call): Reply {
    const { roomId = '', eventType = '', txnId = '' } = call.params;
    const key = `${call.session.token}\u0000txn\u0000${roomId}\u0000${txnId}`;
    const known = this.transactions.get(key);
    if (known) return { json: { event_id: known } };
    this.joined(roomId, call.session.userId);
    const event = this.store(roomId, call.session.userId, eventType, this.json(call));
    this.transactions.set(key, event.event_id);
    this.transactions.set(`${call.session.token}\u0000event\u0000${event.event_id}`, txnId);
    return { json: { event_id: event.event_id } };
  }

  private match(method: string, segments: string[]): { route: Route; params: Record<string, string> } | 'wrong_method' | undefined {
    let wrongMethod = false;
    for (const route of this.routes) {
      if (route.segments.length !== segments.length) continue;
      const params: Record<string, string> = {};
      const fits = route.segments.every((part, index) => {
        const actual = segments[index] ?? '';
        if (part.startsWith(':')) {
          params[part.slice(1)] = actual;
          return true;
        }
        return part === actual;
      });
      if (!fits) continue;
      if (route.method === method) return { route, params };
      wrongMethod = true;
    }
    return wrongMethod ? 'wrong_method' : undefined;
  }

  private authenticate(request: IncomingMessage, query: URLSearchParams): Session {
    const header = request.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7) : query.get('access_token');
    if (!token) throw new MatrixError(401, 'M_MISSING_TOKEN', 'Missing access token');
    const session = this.sessions.get(token);
    if (!session) throw new MatrixError(401, 'M_UNKNOWN_TOKEN', 'Unrecognised access token', { soft_logout: false });
    return session;
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const method = request.method ?? 'GET';
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const abort = new AbortController();
    response.on('close', () => abort.abort());
    const recorded: RecordedRequest = { method, path: url.pathname };
    this.requests.push(recorded);
    try {
      const segments = url.pathname.split('/').slice(1).map(decodeURIComponent);
      const found = this.match(method, segments);
      if (found === 'wrong_method') throw new MatrixError(405, 'M_UNRECOGNIZED', 'Unrecognized request');
      if (!found) throw new MatrixError(404, 'M_UNRECOGNIZED', 'Unrecognized request');
      const session = found.route.auth === 'required' ? this.authenticate(request, url.searchParams) : undefined;
      if (session) Object.assign(recorded, { userId: session.userId, token: session.token });
      this.changed();
      const failure = this.failures.findIndex((candidate) => candidate.method === method && candidate.path.test(url.pathname));
      if (failure >= 0) {
        const planned = this.failures.splice(failure, 1)[0]?.failure as Failure;
        throw new MatrixError(
          planned.status,
          planned.errcode,
          planned.error,
          planned.retryAfterMs === undefined ? {} : { retry_after_ms: planned.retryAfterMs },
        );
      }
      const reply = await found.route.handle({
        params: found.params,
        query: url.searchParams,
        body: Buffer.concat(chunks),
        headers: request.headers,
        session: session as Session,
        signal: abort.signal,
      });
      if (response.destroyed) return;
      if (reply.bytes) {
        const disposition = reply.bytes.fileName ? `inline; filename="${reply.bytes.fileName.replace(/"/g, '')}"` : 'inline';
        response.writeHead(reply.status ?? 200, { 'content-type': reply.bytes.contentType, 'content-disposition': disposition });
        response.end(reply.bytes.data);
        return;
      }
      response.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(reply.json ?? {}));
    } catch (error) {
      const known = error instanceof MatrixError ? error : new MatrixError(500, 'M_UNKNOWN', 'Internal server error');
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      const retryAfterMs = known.extra.retry_after_ms;
      if (typeof retryAfterMs === 'number') headers['retry-after'] = String(Math.ceil(retryAfterMs / 1000));
      if (!response.destroyed) {
        response.writeHead(known.status, headers);
        response.end(JSON.stringify({ errcode: known.errcode, error: known.message, ...known.extra }));
      }
    }
  }
}

/** A homeserver listening on 127.0.0.1 at an ephemeral port; close it after the test. */
export async function startMatrixHomeserver(): Promise<MatrixHomeserver> {
  const server = new MatrixHomeserver();
  await server.listen();
  return server;
}

// --- Anima against the homeserver ---

const repositoryInterfaces = fileURLToPath(new URL('../../interface', import.meta.url));

/**
 * Anima with the repository's interfaces (Matrix among them) and the scripted test engine, its Matrix
 * account on `server`. `backups` keeps the session file across two runs (a restart).
 */
export function startAnimaOnMatrix(
  server: MatrixHomeserver,
  environment: Record<string, string>,
  logDestination?: NodeJS.WritableStream,
): Promise<TestServices> {
  return createTestServices({
    componentRoots: { interface: repositoryInterfaces, cortex: fixtureRoots.cortex },
    environment: { CORTEX_ENGINE: 'scripted', MATRIX_HOMESERVER: server.baseUrl, ...environment },
    ...(logDestination ? { logDestination, logLevel: 'info' } : {}),
  });
}

/** Resolves once the `matrix` interface reports `state` (and a detail `detail` matches), polling its entry. */
export async function matrixConnection(harness: TestServices, state: ConnectionReport['state'], detail = /./, timeoutMs = 15_000): Promise<ConnectionReport> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const connection = harness.services.components.find('matrix', 'interface')?.connection;
    if (connection?.state === state && detail.test(connection.detail ?? '')) return connection;
    if (Date.now() > deadline) throw new Error(`matrix did not become ${state} (${detail}); it is ${JSON.stringify(connection)}`);
    await delay(20);
  }
}
