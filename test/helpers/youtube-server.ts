import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from './recording-server.ts';

/**
 * A local YouTube Data API v3 for live chat: `videos?part=liveStreamingDetails` (activeLiveChatId),
 * `liveChat/messages` list (pages with nextPageToken and pollingIntervalMillis) and insert (OAuth only),
 * with Google's error shape (`error.errors[0].reason`), as https://developers.google.com/youtube/v3/live/docs
 * documents them. An API key reads; only the access token posts. Google's OAuth token endpoint (`POST /token`,
 * the refresh_token grant with the client id and secret in the form: 400 `invalid_grant` for a revoked refresh
 * token, 401 `invalid_client` for a wrong client) gives new access tokens; `expireAccessToken` makes the current
 * one answer 401 `authError`, as an expired one does.
 */
export interface YouTubeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  json: Record<string, unknown> | undefined;
  authorization: string | undefined;
  status: number;
  /** The test clock's time of the request. */
  at: number;
}

interface ChatItem {
  id: string;
  snippet: Record<string, unknown>;
  authorDetails: { channelId: string; displayName: string; isChatOwner: boolean; isChatModerator: boolean; isChatSponsor: boolean };
}

export async function startYouTubeServer(options: { now?: () => number; pollingIntervalMillis?: number } = {}) {
  const now = options.now ?? Date.now;
  const apiKey = `key-${randomUUID()}`;
  let accessToken = `ya29.${randomUUID()}`;
  const oauthClient = { clientId: 'client-1.apps.googleusercontent.com', clientSecret: `GOCSPX-${randomUUID()}`, refreshToken: `1//${randomUUID()}` };
  let refreshRevoked = false;
  const refreshes: URLSearchParams[] = [];
  const videoId = 'liveVideo01';
  const liveChatId = `chat-${randomUUID()}`;
  const botChannel = { channelId: 'UCanimaBot', displayName: 'Anima' };
  const items: ChatItem[] = [];
  const requests: YouTubeRequest[] = [];
  let ended = false;
  let pollingIntervalMillis = options.pollingIntervalMillis ?? 5000;

  const add = (author: { channelId: string; displayName: string }, snippet: Record<string, unknown>) => {
    const item = {
      id: randomUUID(),
      snippet: { liveChatId, authorChannelId: author.channelId, publishedAt: new Date(now()).toISOString(), hasDisplayContent: true, ...snippet },
      authorDetails: { ...author, isChatOwner: false, isChatModerator: false, isChatSponsor: false },
    };
    items.push(item);
    return item.id;
  };

  /** A JSON body, or undefined for none. */
  const read = async (request: IncomingMessage) => {
    const text = await readBody(request);
    return text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>);
  };

  const http = createServer((request, response) => void handle(request, response));
  /** Google's OAuth 2.0 token endpoint, refresh_token grant only. */
  async function token(request: IncomingMessage, response: ServerResponse) {
    const form = new URLSearchParams(await readBody(request));
    refreshes.push(form);
    const answer = (status: number, body: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
    if (form.get('client_id') !== oauthClient.clientId || form.get('client_secret') !== oauthClient.clientSecret)
      return answer(401, { error: 'invalid_client', error_description: 'The OAuth client was not found.' });
    if (form.get('grant_type') !== 'refresh_token') return answer(400, { error: 'unsupported_grant_type', error_description: 'Invalid grant_type' });
    if (form.get('refresh_token') !== oauthClient.refreshToken || refreshRevoked)
      return answer(400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
    accessToken = `ya29.${randomUUID()}`;
    return answer(200, { access_token: accessToken, expires_in: 3599, scope: 'https://www.googleapis.com/auth/youtube.force-ssl', token_type: 'Bearer' });
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (request.method === 'POST' && url.pathname === '/oauth2/token') return token(request, response);
    const path = url.pathname.replace(/^\/youtube\/v3/, '');
    const json = await read(request).catch(() => undefined);
    const record: YouTubeRequest = {
      method: request.method ?? '',
      path,
      query: url.searchParams,
      json,
      authorization: request.headers.authorization,
      status: 0,
      at: now(),
    };
    requests.push(record);
    const answer = (status: number, body: unknown) => {
      record.status = status;
      response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
      response.end(JSON.stringify(body));
    };
    const error = (status: number, reason: string, message: string) =>
      answer(status, { error: { code: status, message, errors: [{ message, domain: 'youtube.liveChat', reason }] } });
    const oauth = record.authorization === `Bearer ${accessToken}`;
    if (record.authorization && !oauth) return error(401, 'authError', 'Request had invalid authentication credentials.');
    if (!oauth && url.searchParams.get('key') !== apiKey) return error(401, 'unauthorized', 'Request is missing required authentication credential.');
    if (request.method === 'GET' && path === '/videos') {
      if (url.searchParams.get('part') !== 'liveStreamingDetails') return error(400, 'invalidPart', 'part must be liveStreamingDetails here');
      const found = url.searchParams.get('id') === videoId;
      const details = { actualStartTime: new Date(now()).toISOString(), ...(ended ? {} : { activeLiveChatId: liveChatId, concurrentViewers: '12' }) };
      return answer(200, { kind: 'youtube#videoListResponse', items: found ? [{ kind: 'youtube#video', id: videoId, liveStreamingDetails: details }] : [] });
    }
    if (path === '/liveChat/messages' && request.method === 'GET') {
      if (url.searchParams.get('liveChatId') !== liveChatId)
        return error(404, 'liveChatNotFound', 'The live chat that you are trying to retrieve cannot be found.');
      if (ended) return error(403, 'liveChatEnded', 'The specified live chat is no longer live.');
      const from = Number(url.searchParams.get('pageToken') ?? '0');
      return answer(200, {
        kind: 'youtube#liveChatMessageListResponse',
        pollingIntervalMillis,
        nextPageToken: String(items.length),
        pageInfo: { totalResults: items.length - from, resultsPerPage: items.length - from },
        items: items.slice(from).map((item) => ({ kind: 'youtube#liveChatMessage', ...item })),
      });
    }
    if (path === '/liveChat/messages' && request.method === 'POST') {
      if (!oauth) return error(401, 'required', 'Login Required.');
      const snippet = (json?.snippet ?? {}) as { liveChatId?: string; type?: string; textMessageDetails?: { messageText?: string } };
      const text = snippet.textMessageDetails?.messageText;
      if (snippet.liveChatId !== liveChatId) return error(404, 'liveChatNotFound', 'The live chat cannot be found.');
      if (snippet.type !== 'textMessageEvent' || !text) return error(400, 'messageTextMissing', 'The message text is missing.');
      if (text.length > 200) return error(400, 'messageTooLong', 'The message is too long.');
      const id = add(botChannel, { type: 'textMessageEvent', displayMessage: text, textMessageDetails: { messageText: text } });
      return answer(200, { kind: 'youtube#liveChatMessage', id, snippet: items.at(-1)?.snippet, authorDetails: items.at(-1)?.authorDetails });
    }
    return error(404, 'notFound', 'unknown endpoint');
  }

  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  return {
    apiBaseUrl: `http://127.0.0.1:${port}/youtube/v3`,
    /** YOUTUBE_AUTH_BASE_URL. */
    authBaseUrl: `http://127.0.0.1:${port}/oauth2`,
    apiKey,
    get accessToken() {
      return accessToken;
    },
    oauthClient,
    /** The forms the token endpoint received. */
    refreshes,
    /** The access token expires: the API answers 401 to it from now on. */
    expireAccessToken: () => {
      accessToken = `ya29.${randomUUID()}`;
    },
    /** The user revoked the app: the refresh token is refused. */
    revokeRefreshToken: () => {
      refreshRevoked = true;
    },
    videoId,
    liveChatId,
    requests,
    /** What the account posted. */
    posted: () =>
      items
        .filter((item) => item.authorDetails.channelId === botChannel.channelId)
        .map((item) => (item.snippet.textMessageDetails as { messageText: string }).messageText),
    say: (name: string, text: string) =>
      add({ channelId: `UC${name}`, displayName: name }, { type: 'textMessageEvent', displayMessage: text, textMessageDetails: { messageText: text } }),
    superChat: (name: string, amount: string, comment: string) =>
      add(
        { channelId: `UC${name}`, displayName: name },
        {
          type: 'superChatEvent',
          displayMessage: comment,
          superChatDetails: { amountMicros: '5000000', currency: 'USD', amountDisplayString: amount, userComment: comment, tier: 2 },
        },
      ),
    setPollingInterval: (ms: number) => {
      pollingIntervalMillis = ms;
    },
    end: () => {
      ended = true;
    },
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}
export type YouTubeServer = Awaited<ReturnType<typeof startYouTubeServer>>;
