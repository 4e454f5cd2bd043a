import { type ClockPort, type ComponentContext, type ConnectionReport, TokenRefusedError } from '../../src/components/contract.ts';
import { type ChatItem, YouTubeApi, YouTubeApiError } from './api.ts';
import { canPost, type YouTubeSettings } from './settings.ts';

/** A floor under the API's polling interval, so a missing or zero value never spins. */
const MIN_POLL_MS = 1000;
/** The wait after a failed call: doubled each time, up to this. */
const MAX_BACKOFF_MS = 5 * 60_000;
/** Reasons after which polling cannot help: the stream is over, or the chat is gone. */
const ENDED = new Set(['liveChatEnded', 'liveChatNotFound', 'liveChatDisabled']);

export interface ChatReaderOptions {
  settings(): YouTubeSettings;
  report(report: ConnectionReport): void;
  logger: ComponentContext['logger'];
  clock: ClockPort;
  onMessage(item: ChatItem): void;
}

/**
 * Reads one live stream's chat: resolves the video's `activeLiveChatId`, then polls `liveChat/messages`
 * with each page's `nextPageToken`, waiting the `pollingIntervalMillis` the API asks for, on the host's
 * clock. The first page is the chat's backlog: only its token is kept, so old messages are not answered.
 */
export class ChatReader {
  private timer: unknown;
  private stopped = true;
  private failures = 0;
  private liveChatId: string | undefined;
  private pageToken: string | undefined;
  private readonly sent = new Set<string>();
  readonly api: YouTubeApi;

  constructor(private readonly options: ChatReaderOptions) {
    this.api = new YouTubeApi(options.settings, options.clock);
  }

  /** The chat being read, once resolved. */
  get chatId(): string | undefined {
    return this.liveChatId;
  }

  /** Remembers a message this account posted, so it is not read back as a viewer's. */
  posted(id: string): void {
    this.sent.add(id);
  }

  start(): void {
    this.stopped = false;
    this.api.reset();
    this.liveChatId = undefined;
    this.pageToken = undefined;
    this.options.report({ state: 'connecting' });
    this.next(0);
  }

  stop(): void {
    this.stopped = true;
    this.options.clock.clearTimeout(this.timer);
  }

  private next(ms: number): void {
    if (this.stopped) return;
    this.timer = this.options.clock.setTimeout(() => void this.poll(), ms);
  }

  private async poll(): Promise<void> {
    const settings = this.options.settings();
    try {
      if (!this.liveChatId) {
        this.liveChatId = await this.api.activeLiveChatId(settings.videoId);
        if (!this.liveChatId) return this.ended(`video ${settings.videoId} has no active live chat (not live, or not found)`);
      }
      const backlog = this.pageToken === undefined;
      const page = await this.api.messages(this.liveChatId, this.pageToken);
      if (this.stopped) return;
      if (this.failures > 0 || backlog) this.connected(settings);
      this.failures = 0;
      this.pageToken = page.nextPageToken ?? this.pageToken;
      if (!backlog) for (const item of page.items) if (!this.sent.delete(item.id)) this.options.onMessage(item);
      if (page.offline) return this.ended('the live stream has ended');
      this.next(Math.max(MIN_POLL_MS, page.pollingIntervalMillis ?? MIN_POLL_MS));
    } catch (error) {
      if (this.stopped) return;
      if (error instanceof YouTubeApiError && error.reason && ENDED.has(error.reason)) return this.ended(error.message);
      if (error instanceof TokenRefusedError) return this.refused(error.message);
      this.failures += 1;
      const wait = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** this.failures);
      this.options.logger.warn({ err: error, retry_in_ms: wait }, 'reading the YouTube live chat failed');
      this.options.report({
        state: 'disconnected',
        detail: `${error instanceof Error ? error.message : String(error)}; retrying in ${Math.round(wait / 1000)} s`,
      });
      this.next(wait);
    }
  }

  private connected(settings: YouTubeSettings): void {
    const mode = canPost(settings) ? 'answering' : 'read only: YOUTUBE_API_KEY cannot post, set YOUTUBE_ACCESS_TOKEN to answer in the chat';
    this.options.report({ state: 'connected', detail: `reading the live chat of ${settings.videoId} (${mode})` });
  }

  /** The OAuth token expired and could not be renewed: polling again would only be refused again. */
  private refused(reason: string): void {
    this.options.logger.error({ reason }, 'YouTube refused the OAuth token; stopped');
    this.options.report({
      state: 'disconnected',
      detail: `YouTube refused the access token: ${reason}; save a new YOUTUBE_ACCESS_TOKEN or YOUTUBE_REFRESH_TOKEN`,
    });
    this.stopped = true;
  }

  private ended(reason: string): void {
    this.options.logger.info({ reason }, 'the YouTube live chat is not readable; stopped');
    this.options.report({ state: 'disconnected', detail: `${reason}; save YOUTUBE_LIVE_VIDEO_ID again to read a new stream` });
    this.stopped = true;
  }
}
