import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CallbackQuery, Chat, Message, Update, User } from 'grammy/types';

/** One request to a Bot API method, as the server understood it. */
export interface BotApiCall {
  method: string;
  /** The token in the URL (a call with another token than the bot's is refused with 401, and not recorded). */
  token: string;
  /** JSON values as sent; multipart fields parsed back from their JSON text where they hold JSON. */
  params: Record<string, unknown>;
  /** Files uploaded with multipart/form-data, by the field that names them (`voice`, `photo`...). */
  files: Record<string, { name: string; bytes: Buffer }>;
  /** What the server answered (the sent Message, for instance), once it answered successfully. */
  result?: unknown;
}

/** A Bot API error as Telegram sends it: `{ok: false, error_code, description, parameters?}`. */
export interface BotApiError {
  error_code: number;
  description: string;
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

interface StoredFile {
  file_id: string;
  file_unique_id: string;
  file_path: string;
  bytes: Buffer;
}

interface Poll {
  offset: number;
  limit: number;
  respond(updates: Update[]): void;
  fail(error: BotApiError): void;
}

/** What a test writes in a chat: text (with entities worked out for @mentions and /commands), and anything else of a Message. */
export interface Said extends Partial<Omit<Message, 'chat' | 'from'>> {
  chat: Chat;
  from: User;
}

export interface FakeBotApi {
  /** TELEGRAM_API_BASE_URL for the bot. */
  apiRoot: string;
  /** The bot's current token; `revoke()` makes a new one and the old one gets 401. */
  readonly token: string;
  readonly bot: User & { username: string };
  calls: BotApiCall[];
  /** A private chat with a person (its id is the person's). */
  privateChat(user: User): Chat.PrivateChat;
  group(id: number, title: string, options?: { forum?: boolean }): Chat.SupergroupChat;
  user(id: number, firstName: string): User;
  /** A message from a person, delivered by the next getUpdates. */
  say(said: Said): Message;
  /** A person presses an inline button of one of the bot's messages. */
  press(from: User, message: Message, data: string): CallbackQuery;
  /** A file the bot may fetch with getFile and download. */
  addFile(bytes: Buffer, folder: string): StoredFile;
  /** The bytes of a file the bot uploaded, by its file_id. */
  uploaded(fileId: string): Buffer | undefined;
  /** The next `times` calls of `method` fail with this error (429 with retry_after, 403 blocked...). */
  fail(method: string, error: BotApiError, times?: number): void;
  /** Resolves with the first call (made or to come) that matches. */
  waitFor(method: string, match?: (call: BotApiCall) => boolean): Promise<BotApiCall>;
  /** A new token for the bot (as @BotFather's /revoke); returns it. */
  revoke(): string;
  /** Whether a getUpdates long poll is waiting now (the bot is polling). */
  readonly polling: boolean;
  close(): Promise<void>;
}

const JSON_HEADERS = { 'content-type': 'application/json' };
const MAX_TEXT = 4096;
const MAX_CAPTION = 1024;

const newToken = (botId: number) => `${botId}:${randomBytes(18).toString('base64url')}`;

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => resolve(Buffer.concat(parts)));
    request.on('error', reject);
  });
}

const jsonOrText = (value: string): unknown => {
  if (!/^[[{]/.test(value)) return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
};

/**
 * The parts of a multipart/form-data body. Written out because grammY writes its headers without spaces
 * and its file names unquoted (`content-disposition:form-data;name="x";filename=v.ogg`), which Telegram
 * takes and the stricter WHATWG parser of `Response.formData()` refuses.
 */
function multipartParts(body: Buffer, contentType: string): Array<{ name: string; filename?: string; bytes: Buffer }> {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  if (!boundary) throw new Error('multipart/form-data without a boundary');
  const delimiter = Buffer.from(`\r\n--${boundary[1] ?? boundary[2]}`);
  const parts: Array<{ name: string; filename?: string; bytes: Buffer }> = [];
  // The first delimiter has no line break before it.
  let start = Buffer.concat([Buffer.from('\r\n'), body]).indexOf(delimiter) + delimiter.length - 2;
  while (start >= 0) {
    const end = body.indexOf(delimiter, start);
    if (end < 0 || body.subarray(start, start + 2).toString() === '--') break;
    const part = body.subarray(start + 2, end);
    const split = part.indexOf('\r\n\r\n');
    const headers = part.subarray(0, split).toString('utf8');
    const name = /name="([^"]*)"/i.exec(headers)?.[1];
    const filename = /filename=(?:"([^"]*)"|([^;\r\n]+))/i.exec(headers);
    if (name !== undefined)
      parts.push({ name, ...(filename ? { filename: filename[1] ?? filename[2] ?? '' } : {}), bytes: Buffer.from(part.subarray(split + 4)) });
    start = end + delimiter.length;
  }
  return parts;
}

/** Parses a request's parameters the ways the Bot API takes them: query string, JSON, urlencoded or multipart. */
async function parseCall(request: IncomingMessage, url: URL): Promise<Pick<BotApiCall, 'params' | 'files'>> {
  const params: Record<string, unknown> = Object.fromEntries([...url.searchParams].map(([key, value]) => [key, jsonOrText(value)]));
  const files: BotApiCall['files'] = {};
  const body = await readBody(request);
  const type = request.headers['content-type'] ?? '';
  if (body.length === 0) return { params, files };
  if (type.startsWith('application/json')) return { params: { ...params, ...(JSON.parse(body.toString('utf8')) as Record<string, unknown>) }, files };
  const attached = new Map<string, { name: string; bytes: Buffer }>();
  for (const part of multipartParts(body, type)) {
    if (part.filename === undefined) params[part.name] = jsonOrText(part.bytes.toString('utf8'));
    else attached.set(part.name, { name: part.filename, bytes: part.bytes });
  }
  // A file part is named by its field, or by the `attach://<name>` a field holds.
  for (const [name, part] of attached) {
    const field = Object.keys(params).find((key) => params[key] === `attach://${name}`) ?? name;
    files[field] = part;
  }
  return { params, files };
}

/** Finds the @mentions and /commands of a text, as Telegram's clients mark them. */
function entitiesOf(text: string): Message['entities'] {
  const entities: NonNullable<Message['entities']> = [];
  for (const match of text.matchAll(/(^|\s)(@\w{3,32}|\/\w+(?:@\w+)?)/g)) {
    const token = match[2] ?? '';
    const offset = (match.index ?? 0) + (match[1]?.length ?? 0);
    if (token.startsWith('@')) entities.push({ type: 'mention', offset, length: token.length });
    else if (offset === 0) entities.push({ type: 'bot_command', offset, length: token.length });
  }
  return entities.length > 0 ? entities : undefined;
}

/**
 * A local Telegram Bot API server speaking the real HTTP protocol, so grammY runs against it unchanged:
 * `POST /bot<token>/<method>` with JSON, urlencoded or multipart parameters (uploads by `attach://`),
 * answers `{ok: true, result}` or Telegram's own error shape, `GET /file/bot<token>/<file_path>` downloads,
 * and getUpdates long polling with `offset`, `limit` and `timeout` (a newer poll ends an older one with
 * 409 Conflict, as Telegram does). Chats the bot never heard from are "chat not found".
 */
export async function startFakeBotApi(options: { botId?: number; username?: string } = {}): Promise<FakeBotApi> {
  const botId = options.botId ?? 7_000_000_001;
  const bot = { id: botId, is_bot: true as const, first_name: 'Anima', username: options.username ?? 'anima_test_bot' };
  let token = newToken(botId);
  const calls: BotApiCall[] = [];
  const updates: Update[] = [];
  let nextUpdateId = 100;
  let nextMessageId = 1;
  const chats = new Map<number, Chat>();
  const files = new Map<string, StoredFile>();
  const callbackQueries = new Set<string>();
  const failures: Array<{ method: string; error: BotApiError }> = [];
  const waiters: Array<{ method: string; match: (call: BotApiCall) => boolean; resolve: (call: BotApiCall) => void }> = [];
  let poll: Poll | undefined;

  const now = () => Math.floor(Date.now() / 1000);
  const deliver = () => {
    if (!poll) return;
    const pending = updates.filter((update) => update.update_id >= (poll?.offset ?? 0)).slice(0, poll.limit);
    if (pending.length === 0) return;
    const waiting = poll;
    poll = undefined;
    waiting.respond(pending);
  };
  const push = (update: Omit<Update, 'update_id'>) => {
    updates.push({ ...update, update_id: nextUpdateId++ } as Update);
    deliver();
  };
  const addFile = (bytes: Buffer, folder: string): StoredFile => {
    const id = randomBytes(12).toString('base64url');
    const file = { file_id: `F${id}`, file_unique_id: `U${id.slice(0, 8)}`, file_path: `${folder}/file_${files.size}`, bytes };
    files.set(file.file_id, file);
    return file;
  };

  class Failure extends Error {
    constructor(readonly error: BotApiError) {
      super(error.description);
    }
  }
  const badRequest = (description: string) => new Failure({ error_code: 400, description: `Bad Request: ${description}` });

  const chatOf = (params: Record<string, unknown>): Chat => {
    const chat = chats.get(Number(params.chat_id));
    if (!chat) throw badRequest('chat not found');
    return chat;
  };
  const fileParam = (call: BotApiCall, field: string, folder: string): StoredFile => {
    const uploaded = call.files[field];
    if (uploaded) return addFile(uploaded.bytes, folder);
    const reference = call.params[field];
    if (typeof reference !== 'string' || reference === '') throw badRequest(`there is no ${field} in the request`);
    return files.get(reference) ?? addFile(Buffer.from(reference), folder);
  };
  const botMessage = (call: BotApiCall, content: Partial<Message>): Message => {
    const chat = chatOf(call.params);
    const thread = call.params.message_thread_id === undefined ? {} : { message_thread_id: Number(call.params.message_thread_id), is_topic_message: true };
    const markup = call.params.reply_markup as Message['reply_markup'] | undefined;
    for (const row of markup?.inline_keyboard ?? [])
      for (const button of row) if ('callback_data' in button && Buffer.byteLength(button.callback_data ?? '') > 64) throw badRequest('BUTTON_DATA_INVALID');
    return { message_id: nextMessageId++, date: now(), chat, from: bot, ...thread, ...(markup ? { reply_markup: markup } : {}), ...content } as Message;
  };
  const caption = (call: BotApiCall) => {
    const text = call.params.caption;
    if (typeof text === 'string' && text.length > MAX_CAPTION) throw badRequest('message caption is too long');
    return typeof text === 'string' ? { caption: text } : {};
  };

  const methods: Record<string, (call: BotApiCall) => unknown> = {
    getMe: () => ({ ...bot, can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false }),
    deleteWebhook: () => true,
    setMyCommands: () => true,
    sendChatAction: (call) => {
      chatOf(call.params);
      return true;
    },
    sendMessage: (call) => {
      const text = String(call.params.text ?? '');
      if (text.trim() === '') throw badRequest('message text is empty');
      if (text.length > MAX_TEXT) throw badRequest('message is too long');
      return botMessage(call, { text });
    },
    sendVoice: (call) => {
      const file = fileParam(call, 'voice', 'voice');
      const voice = { file_id: file.file_id, file_unique_id: file.file_unique_id, duration: Number(call.params.duration ?? 0), mime_type: 'audio/ogg' };
      return botMessage(call, { voice: { ...voice, file_size: file.bytes.length }, ...caption(call) });
    },
    sendAudio: (call) => {
      const file = fileParam(call, 'audio', 'music');
      return botMessage(call, { audio: { file_id: file.file_id, file_unique_id: file.file_unique_id, duration: 0 }, ...caption(call) });
    },
    sendPhoto: (call) => {
      const file = fileParam(call, 'photo', 'photos');
      return botMessage(call, { photo: [{ file_id: file.file_id, file_unique_id: file.file_unique_id, width: 1, height: 1 }], ...caption(call) });
    },
    sendDocument: (call) => {
      const file = fileParam(call, 'document', 'documents');
      return botMessage(call, { document: { file_id: file.file_id, file_unique_id: file.file_unique_id }, ...caption(call) });
    },
    getFile: (call) => {
      const file = files.get(String(call.params.file_id));
      if (!file) throw badRequest('invalid file_id');
      return { file_id: file.file_id, file_unique_id: file.file_unique_id, file_size: file.bytes.length, file_path: file.file_path };
    },
    answerCallbackQuery: (call) => {
      if (!callbackQueries.delete(String(call.params.callback_query_id)))
        throw badRequest('query is too old and response timeout expired or query ID is invalid');
      return true;
    },
  };

  const send = (response: ServerResponse, status: number, body: unknown) => {
    if (!response.destroyed) response.writeHead(status, JSON_HEADERS).end(JSON.stringify(body));
  };
  const sendError = (response: ServerResponse, error: BotApiError) => send(response, error.error_code, { ok: false, ...error });

  const getUpdates = (call: BotApiCall, response: ServerResponse) => {
    const offset = Number(call.params.offset ?? 0);
    // A positive offset confirms every update before it: Telegram forgets them.
    if (offset > 0) updates.splice(0, updates.filter((update) => update.update_id < offset).length);
    poll?.fail({ error_code: 409, description: 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running' });
    let timer: NodeJS.Timeout | undefined;
    const end = () => {
      clearTimeout(timer);
      if (poll === current) poll = undefined;
    };
    const current: Poll = {
      offset,
      limit: Math.min(100, Math.max(1, Number(call.params.limit ?? 100))),
      respond: (result) => {
        end();
        send(response, 200, { ok: true, result });
      },
      fail: (error) => {
        end();
        sendError(response, error);
      },
    };
    poll = current;
    deliver();
    if (poll !== current) return;
    const timeoutS = Math.max(0, Number(call.params.timeout ?? 0));
    if (timeoutS === 0) return current.respond([]);
    timer = setTimeout(() => current.respond([]), timeoutS * 1000);
    // The bot gave up waiting (it stopped): nobody takes the next updates until it polls again.
    response.on('close', end);
  };

  const answer = (call: BotApiCall, response: ServerResponse) => {
    const failure = failures.find((entry) => entry.method === call.method);
    if (failure) {
      failures.splice(failures.indexOf(failure), 1);
      return sendError(response, failure.error);
    }
    if (call.method === 'getUpdates') return getUpdates(call, response);
    const handle = methods[call.method];
    if (!handle) return sendError(response, { error_code: 404, description: 'Not Found: method not found' });
    try {
      call.result = handle(call);
      send(response, 200, { ok: true, result: call.result });
    } catch (error) {
      if (!(error instanceof Failure)) throw error;
      sendError(response, error.error);
    }
  };

  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const download = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
      if (download) {
        const file = download[1] === token ? [...files.values()].find((entry) => entry.file_path === download[2]) : undefined;
        if (!file) return sendError(response, { error_code: 404, description: 'Not Found' });
        response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': file.bytes.length }).end(file.bytes);
        return;
      }
      const route = /^\/bot([^/]+)\/(\w+)$/.exec(url.pathname);
      if (!route) return sendError(response, { error_code: 404, description: 'Not Found' });
      if (route[1] !== token) return sendError(response, { error_code: 401, description: 'Unauthorized' });
      const call: BotApiCall = { method: route[2] ?? '', token, ...(await parseCall(request, url)) };
      calls.push(call);
      try {
        answer(call, response);
      } finally {
        // After the answer, so a test that waited for a call finds its result.
        for (const waiter of waiters.filter((entry) => entry.method === call.method && entry.match(call))) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(call);
        }
      }
    })().catch((error: unknown) => send(response, 500, { ok: false, error_code: 500, description: `Internal Server Error: ${String(error)}` }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    apiRoot: `http://127.0.0.1:${port}`,
    get token() {
      return token;
    },
    bot,
    calls,
    privateChat: (user) => {
      const chat: Chat.PrivateChat = { id: user.id, type: 'private', first_name: user.first_name };
      chats.set(chat.id, chat);
      return chat;
    },
    group: (id, title, { forum = false } = {}) => {
      const chat: Chat.SupergroupChat = { id, type: 'supergroup', title, ...(forum ? { is_forum: true as const } : {}) };
      chats.set(chat.id, chat);
      return chat;
    },
    user: (id, firstName) => ({ id, is_bot: false, first_name: firstName }),
    say: (said) => {
      const text = typeof said.text === 'string' ? { entities: entitiesOf(said.text) } : {};
      const message = { message_id: nextMessageId++, date: now(), ...text, ...said } as Message;
      chats.set(said.chat.id, said.chat);
      push({ message } as Omit<Update, 'update_id'>);
      return message;
    },
    press: (from, message, data) => {
      const query: CallbackQuery = {
        id: randomBytes(8).toString('hex'),
        from,
        chat_instance: String(message.chat.id),
        message: message as CallbackQuery['message'],
        data,
      };
      callbackQueries.add(query.id);
      push({ callback_query: query });
      return query;
    },
    addFile,
    uploaded: (fileId) => files.get(fileId)?.bytes,
    fail: (method, error, times = 1) => {
      for (let index = 0; index < times; index += 1) failures.push({ method, error });
    },
    waitFor: (method, match = () => true) => {
      const made = calls.find((call) => call.method === method && match(call));
      return made ? Promise.resolve(made) : new Promise((resolve) => waiters.push({ method, match, resolve }));
    },
    revoke: () => {
      token = newToken(botId);
      return token;
    },
    get polling() {
      return poll !== undefined;
    },
    close: async () => {
      poll?.respond([]);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
