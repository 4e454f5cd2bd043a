import type { ComponentContext } from '../../src/components/contract.ts';

/** The variables whose change replaces the connection. */
export const CONNECTION_KEYS = [
  'TWITCH_CLIENT_ID',
  'TWITCH_ACCESS_TOKEN',
  'TWITCH_CHANNEL',
  'TWITCH_EVENTSUB_URL',
  'TWITCH_API_BASE_URL',
  'TWITCH_AUTH_BASE_URL',
] as const;

export interface TwitchSettings {
  clientId: string;
  /** Without the `oauth:` prefix chat tokens are often copied with. */
  accessToken: string;
  /** The channel's login, lower case, without `#`. */
  channel: string;
  eventSubUrl: string;
  apiBase: string;
  /** Where the token is validated (`/validate`). */
  authBase: string;
}

export function settingsOf({ config }: Pick<ComponentContext, 'config'>): TwitchSettings {
  return {
    clientId: config.get('TWITCH_CLIENT_ID').trim(),
    accessToken: config
      .get('TWITCH_ACCESS_TOKEN')
      .trim()
      .replace(/^oauth:/i, ''),
    channel: config.get('TWITCH_CHANNEL').trim().replace(/^#/, '').toLowerCase(),
    eventSubUrl: config.get('TWITCH_EVENTSUB_URL').trim(),
    apiBase: config.get('TWITCH_API_BASE_URL').trim().replace(/\/+$/, ''),
    authBase: config.get('TWITCH_AUTH_BASE_URL').trim().replace(/\/+$/, ''),
  };
}
