import type { ComponentContext, RefreshGrant } from '../../src/components/contract.ts';

/** The variables whose change restarts the reader. */
export const CONNECTION_KEYS = [
  'YOUTUBE_LIVE_VIDEO_ID',
  'YOUTUBE_API_KEY',
  'YOUTUBE_ACCESS_TOKEN',
  'YOUTUBE_API_BASE_URL',
  'YOUTUBE_REFRESH_TOKEN',
  'YOUTUBE_CLIENT_ID',
  'YOUTUBE_CLIENT_SECRET',
  'YOUTUBE_AUTH_BASE_URL',
] as const;

export interface YouTubeSettings {
  videoId: string;
  apiKey: string;
  /** An OAuth access token: the only credential that may post (liveChatMessages.insert). */
  accessToken: string;
  apiBase: string;
  /** Renews the access token at Google's token endpoint, when all three are set. */
  refresh: RefreshGrant | undefined;
}

export function settingsOf({ config }: Pick<ComponentContext, 'config'>): YouTubeSettings {
  return {
    videoId: config.get('YOUTUBE_LIVE_VIDEO_ID').trim(),
    apiKey: config.get('YOUTUBE_API_KEY').trim(),
    accessToken: config.get('YOUTUBE_ACCESS_TOKEN').trim(),
    apiBase: config.get('YOUTUBE_API_BASE_URL').trim().replace(/\/+$/, ''),
    refresh: refreshOf(config),
  };
}

function refreshOf(config: ComponentContext['config']): RefreshGrant | undefined {
  const [refreshToken, clientId, clientSecret] = [
    config.get('YOUTUBE_REFRESH_TOKEN').trim(),
    config.get('YOUTUBE_CLIENT_ID').trim(),
    config.get('YOUTUBE_CLIENT_SECRET').trim(),
  ];
  if (!refreshToken || !clientId || !clientSecret) return undefined;
  const tokenUrl = `${config.get('YOUTUBE_AUTH_BASE_URL').trim().replace(/\/+$/, '')}/token`;
  return { tokenUrl, clientId, clientSecret, refreshToken, clientAuth: 'form' };
}

/** OAuth (a token, or a refresh token to get one) may post; an API key only reads. */
export const canPost = (settings: YouTubeSettings) => settings.accessToken !== '' || settings.refresh !== undefined;
