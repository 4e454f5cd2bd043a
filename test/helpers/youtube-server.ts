import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local YouTube Data API v3 for live chat: `videos?part=liveStreamingDetails` (activeLiveChatId),
 * `liveChat/messages` list (pages with nextPageToken and pollingIntervalMillis) and insert (OAuth only),
 * with Google's error shape (`error.errors[0].reason`), as https://developers.google.com/youtube/v3/live/docs
 * documents them. An API key reads; only the access token posts.
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
  const accessToken = `ya29.${randomUUID()}`;
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

  const read = async (request: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    return text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>);
  };

  const http = createServer((request, response) => void handle(request, response));
  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://localhost');
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
    apiKey,
    accessToken,
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
