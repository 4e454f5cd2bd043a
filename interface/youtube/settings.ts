import type { ComponentContext } from '../../src/components/contract.ts';

/** The variables whose change restarts the reader. */
export const CONNECTION_KEYS = ['YOUTUBE_LIVE_VIDEO_ID', 'YOUTUBE_API_KEY', 'YOUTUBE_ACCESS_TOKEN', 'YOUTUBE_API_BASE_URL'] as const;

export interface YouTubeSettings {
  videoId: string;
  apiKey: string;
  /** An OAuth access token: the only credential that may post (liveChatMessages.insert). */
  accessToken: string;
  apiBase: string;
}

export function settingsOf({ config }: Pick<ComponentContext, 'config'>): YouTubeSettings {
  return {
    videoId: config.get('YOUTUBE_LIVE_VIDEO_ID').trim(),
    apiKey: config.get('YOUTUBE_API_KEY').trim(),
    accessToken: config.get('YOUTUBE_ACCESS_TOKEN').trim(),
    apiBase: config.get('YOUTUBE_API_BASE_URL').trim().replace(/\/+$/, ''),
  };
}

export const canPost = (settings: YouTubeSettings) => settings.accessToken !== '';
