import { z } from 'zod';
import { type ClockPort, OAuthToken, withTimeout } from '../../src/components/contract.ts';
import type { YouTubeSettings } from './settings.ts';

const TIMEOUT_MS = 30_000;

/** An error answer of the Data API, with its first `reason` (`liveChatEnded`, `quotaExceeded`...). */
export class YouTubeApiError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

const VideosSchema = z.object({
  items: z.array(z.object({ liveStreamingDetails: z.object({ activeLiveChatId: z.string().optional() }).optional() })).default([]),
});

export const ChatItemSchema = z.object({
  id: z.string(),
  snippet: z.object({
    type: z.string(),
    displayMessage: z.string().optional(),
    textMessageDetails: z.object({ messageText: z.string() }).optional(),
    superChatDetails: z.object({ amountDisplayString: z.string(), userComment: z.string().optional() }).optional(),
    superStickerDetails: z.object({ amountDisplayString: z.string() }).optional(),
  }),
  authorDetails: z.object({ channelId: z.string(), displayName: z.string() }),
});
export type ChatItem = z.infer<typeof ChatItemSchema>;

const ChatPageSchema = z.object({
  nextPageToken: z.string().optional(),
  pollingIntervalMillis: z.number().optional(),
  offlineAt: z.string().optional(),
  items: z.array(z.unknown()).default([]),
});

export interface ChatPage {
  nextPageToken: string | undefined;
  pollingIntervalMillis: number | undefined;
  offline: boolean;
  items: ChatItem[];
}

/**
 * The YouTube Data API v3 calls of a live chat: the video's chat id, its messages, and posting one. With
 * OAuth, a 401 renews the access token with the refresh token and repeats the call once; a refused renewal
 * (or a 401 with no refresh token) throws `TokenRefusedError`.
 */
export class YouTubeApi {
  private oauth: OAuthToken | undefined;

  constructor(
    private readonly settings: () => YouTubeSettings,
    private readonly clock: ClockPort,
  ) {
    this.reset();
  }

  /** Forgets a renewed token: the settings changed. */
  reset(): void {
    const { accessToken, refresh } = this.settings();
    this.oauth = accessToken || refresh ? new OAuthToken({ initial: accessToken, grant: () => this.settings().refresh, clock: this.clock }) : undefined;
  }

  /** `videos?part=liveStreamingDetails`: the chat of the live video, undefined when it is not live. */
  async activeLiveChatId(videoId: string): Promise<string | undefined> {
    const body = VideosSchema.parse(await this.call('GET', '/videos', { part: 'liveStreamingDetails', id: videoId }));
    return body.items[0]?.liveStreamingDetails?.activeLiveChatId;
  }

  /** `liveChat/messages`: the messages after `pageToken`, with the wait the API asks for before the next call. */
  async messages(liveChatId: string, pageToken: string | undefined): Promise<ChatPage> {
    const query = { liveChatId, part: 'snippet,authorDetails', maxResults: '2000', ...(pageToken ? { pageToken } : {}) };
    const page = ChatPageSchema.parse(await this.call('GET', '/liveChat/messages', query));
    const items = page.items.flatMap((item) => {
      const parsed = ChatItemSchema.safeParse(item);
      return parsed.success ? [parsed.data] : [];
    });
    return { nextPageToken: page.nextPageToken, pollingIntervalMillis: page.pollingIntervalMillis, offline: page.offlineAt !== undefined, items };
  }

  /** `liveChatMessages.insert`: posts a text message; returns its id. Needs the OAuth token. */
  async post(liveChatId: string, text: string): Promise<string> {
    const body = { snippet: { liveChatId, type: 'textMessageEvent', textMessageDetails: { messageText: text } } };
    const { id } = z.object({ id: z.string() }).parse(await this.call('POST', '/liveChat/messages', { part: 'snippet' }, body));
    return id;
  }

  private async call(method: 'GET' | 'POST', path: string, query: Record<string, string>, body?: unknown, renewed = false): Promise<unknown> {
    const { apiBase, apiKey } = this.settings();
    const oauth = this.oauth;
    const accessToken = oauth ? await oauth.current() : undefined;
    const url = new URL(`${apiBase}${path}`);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    // The OAuth token when there is one (it may post); the key reads public data only.
    if (!accessToken && apiKey) url.searchParams.set('key', apiKey);
    const { response, json } = await withTimeout(this.clock, TIMEOUT_MS, async (signal) => {
      const response = await fetch(url, {
        method,
        headers: {
          ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal,
      });
      const json = (await response.json().catch(() => ({}))) as { error?: { message?: string; errors?: Array<{ reason?: string }> } };
      return { response, json };
    });
    if (response.status === 401 && oauth && !renewed) {
      await oauth.renew();
      return this.call(method, path, query, body, true);
    }
    if (!response.ok) {
      const reason = json.error?.errors?.[0]?.reason;
      throw new YouTubeApiError(response.status, reason, `${response.status} ${json.error?.message ?? response.statusText}${reason ? ` (${reason})` : ''}`);
    }
    return json;
  }
}
