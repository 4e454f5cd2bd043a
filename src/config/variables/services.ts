import { choice, decimal, flag, integer, list, seconds, text } from '../define.ts';

export const avatarVariables = {
  ACTIVE_SKIN: text('default', { group: 'avatar', description: 'Skin folder the avatar uses; the fallback skin is always default.' }),
  COMPANION_PROMOTE_ENABLED: flag(false, { group: 'avatar', description: 'Value 1 allows promoting temporary uploads into a skin.' }),
  COMPANION_UPLOAD_TTL_DAYS: integer(7, { group: 'avatar', min: 1, max: 36_500, description: 'Days a temporary animation upload is kept.' }),
  COMPANION_UPLOAD_CLEANUP_INTERVAL_S: seconds(3600, { group: 'avatar', min: 1, whole: true, description: 'Seconds between sweeps of expired uploads.' }),
  EMOTION_EXPRESSION_COOLDOWN_S: seconds(4, {
    group: 'avatar',
    min: 0.1,
    description: 'Seconds an [em_*] tag keeps its expression on the face before it clears back to the emotional baseline.',
  }),
} as const;

export const cortexVariables = {
  CORTEX_ENGINE: text('', { group: 'cortex', description: 'Active language-model engine at start (openai, manual); empty answers with a notice.' }),
  OPENAI_BASE_URL: text('https://api.openai.com/v1', {
    group: 'cortex',
    description: 'Chat-completions endpoint (OpenAI, Ollama, llama.cpp, vLLM, LM Studio).',
  }),
  OPENAI_API_KEY: text('', { group: 'cortex', description: 'API key for OPENAI_BASE_URL.' }),
  OPENAI_MODEL: text('gpt-4o-mini', { group: 'cortex', description: 'Model name sent to OPENAI_BASE_URL.' }),
  OPENAI_TIMEOUT_S: seconds(60, { group: 'cortex', min: 0.01, description: 'Seconds to wait for the response headers and between streamed chunks.' }),
  OPENAI_MAX_RETRIES: integer(2, { group: 'cortex', min: 0, max: 10, description: 'Retries (with backoff) after a 429 or 5xx before the reply fails.' }),
  CORTEX_TIMEOUT_S: seconds(120, {
    group: 'cortex',
    min: 0.01,
    description: 'Deadline in seconds for a whole answer; past it the user gets a short error message.',
  }),
} as const;

const compat = { group: 'compat' } as const;

export const compatVariables = {
  COMPAT_HOST: text('127.0.0.1', { ...compat, restart: true, description: 'Address of the Ollama-compatible listener.' }),
  COMPAT_API_SERVER_PORT: integer(11435, {
    ...compat,
    restart: true,
    min: 0,
    max: 65535,
    description: 'Port of the Ollama-compatible listener; 0 picks any free port.',
  }),
  COMPAT_ALLOWED_ORIGINS: list('', {
    ...compat,
    description: 'Browser origins allowed to call the compatibility port (CORS), comma-separated; `*` matches any port or extension id.',
  }),
  COMPAT_DEFAULT_MODEL: text('anima:latest', { ...compat, description: 'Model name reported when the client names none.' }),
  COMPAT_DEFAULT_MODEL_DISPLAY: text('Anima', { ...compat, description: 'Friendly label in the model list.' }),
  COMPAT_MAX_HISTORY: integer(20, { ...compat, min: 0, description: 'Conversation turns kept between requests.' }),
  COMPAT_STREAM_TIMEOUT: seconds(10, { ...compat, min: 0, description: 'Seconds to wait between streamed chunks.' }),
  COMPAT_COMPLETION_TIMEOUT: seconds(0, { ...compat, min: 0, description: 'Deadline in seconds for a whole answer; 0 disables.' }),
} as const;

const radio = { group: 'radio' } as const;

export const radioVariables = {
  RADIO_HOST_ENABLED: flag(false, { ...radio, description: 'Master switch of the radio host.' }),
  STATION_BASE_URL: text('', { ...radio, description: 'Base URL of the radio station server.' }),
  STATION_API_KEY: text('', { ...radio, description: 'Station API key with broadcasting permission.' }),
  STATION_ID: text('', { ...radio, description: 'Station short name.' }),
  RADIO_HOST_LANGUAGE: text('English', { ...radio, description: 'Language of the DJ comments.' }),
  RADIO_HOST_POLL_INTERVAL_S: seconds(15, { ...radio, min: 1, whole: true, description: 'Seconds between station polls.' }),
  RADIO_HOST_INTERMISSION: integer(1, { ...radio, min: 1, description: 'Songs played before the host speaks (1 = every song).' }),
  RADIO_HOST_LISTENER_HISTORY: integer(5, { ...radio, min: 0, description: 'Recent listener messages included in the prompt.' }),
  RADIO_HOST_VOX_ENGINE: text('', { ...radio, description: 'Optional TTS engine for banter; blank uses the active Vox engine.' }),
  RADIO_HOST_GAIN_DB: decimal(4, { ...radio, description: 'Volume boost in dB applied to banter audio.' }),
  RADIO_HOST_NEXT_SONG_ANNOUNCEMENT: flag(false, { ...radio, description: 'Experimental: also announce the next song.' }),
  STATION_STREAMER_USERNAME: text('anima', { ...radio, description: 'Web-broadcaster streamer account user name.' }),
  STATION_STREAMER_PASSWORD: text('anima-dj', { ...radio, description: 'Web-broadcaster streamer account password.' }),
  STATION_WEBDJ_URL: text('', {
    ...radio,
    description: 'Web-broadcaster socket (webcast); empty derives it: STATION_BASE_URL as ws/wss with the path /webdj/<STATION_ID>/.',
  }),
} as const;

const platforms = { group: 'platforms' } as const;

/** Credentials of the chat-platform interfaces; each interface declares which of these it requires. */
export const platformVariables = {
  TELEGRAM_BOT_TOKEN: text('', { ...platforms, description: 'Bot token of the Telegram interface.' }),
  TELEGRAM_TRAINER_ID: text('', { ...platforms, description: 'Operator user id of the Telegram interface.' }),
  TELEGRAM_API_BASE_URL: text('https://api.telegram.org', {
    ...platforms,
    description: 'Telegram Bot API server (a self-hosted telegram-bot-api server, for example).',
  }),
  DISCORD_BOT_TOKEN: text('', { ...platforms, description: 'Bot token of the Discord interface.' }),
  DISCORD_API_BASE_URL: text('https://discord.com/api', {
    ...platforms,
    description: 'Discord REST API base, without the version (the gateway address is what its GET /gateway/bot returns).',
  }),
  DISCORD_CHANNELS: list('', {
    ...platforms,
    description: 'Discord channel ids (threads included) where the bot answers every message, not only mentions and replies; comma-separated.',
  }),
  FLUXER_BOT_TOKEN: text('', { ...platforms, description: 'Token of the Fluxer interface (the "Bot " prefix is added when missing).' }),
  FLUXER_API_BASE_URL: text('', { ...platforms, description: 'Override of the Fluxer REST base URL.' }),
  FLUXER_GATEWAY_URL: text('', { ...platforms, description: 'Override of the Fluxer gateway URL.' }),
  FLUXER_API_VERSION: text('', { ...platforms, description: 'Override of the Fluxer API version.' }),
  MATRIX_HOMESERVER: text('https://matrix.org', { ...platforms, description: 'Matrix homeserver URL.' }),
  MATRIX_USER_ID: text('', { ...platforms, description: 'Matrix user id of the bridge.' }),
  MATRIX_PASSWORD: text('', { ...platforms, description: 'Matrix password (or MATRIX_ACCESS_TOKEN).' }),
  MATRIX_ACCESS_TOKEN: text('', { ...platforms, description: 'Matrix access token (or MATRIX_PASSWORD).' }),
  MATRIX_AUTO_JOIN: choice(['all', 'trainers', 'none'], 'all', {
    ...platforms,
    description: "Rooms the Matrix account joins when invited: every invite, only a trainer's (TRAINER_IDS), or none.",
  }),
  REDDIT_CLIENT_ID: text('', { ...platforms, description: 'Reddit client id.' }),
  REDDIT_CLIENT_SECRET: text('', { ...platforms, description: 'Reddit client secret.' }),
  REDDIT_USERNAME: text('', { ...platforms, description: 'Reddit user name.' }),
  REDDIT_PASSWORD: text('', { ...platforms, description: 'Reddit password.' }),
  REDDIT_USER_AGENT: text('', { ...platforms, description: 'Reddit user agent.' }),
  REDDIT_API_BASE_URL: text('https://oauth.reddit.com', { ...platforms, description: 'Reddit API host of the OAuth2 calls (a local server in tests).' }),
  REDDIT_AUTH_BASE_URL: text('https://www.reddit.com', { ...platforms, description: 'Reddit host of the OAuth2 token endpoint (/api/v1/access_token).' }),
  REDDIT_POLL_INTERVAL_S: seconds(30, { ...platforms, min: 5, description: 'Seconds between two looks at the Reddit inbox (mentions, replies, messages).' }),
  TELEGRAM_API_ID: text('', { ...platforms, description: 'Telegram user-account API id.' }),
  TELEGRAM_API_HASH: text('', { ...platforms, description: 'Telegram user-account API hash.' }),
  TELEGRAM_SESSION: text('', { ...platforms, description: 'Telegram user-account session string.' }),
  X_USERNAME: text('', { ...platforms, description: 'User name of the micro-blogging client.' }),
  X_ACCESS_TOKEN: text('', {
    ...platforms,
    description: 'X API v2 user access token of that account (OAuth 2.0, scopes tweet.read tweet.write users.read) for reading mentions and posting replies.',
  }),
  X_API_BASE_URL: text('https://api.x.com', { ...platforms, description: 'X API v2 host (a local server in tests).' }),
  X_REFRESH_TOKEN: text('', {
    ...platforms,
    description:
      'X OAuth 2.0 refresh token (scope offline.access): renews X_ACCESS_TOKEN when it expires; X gives a new one at each renewal, kept in the backups folder.',
  }),
  X_CLIENT_ID: text('', { ...platforms, description: 'Client id of the X app the refresh token belongs to.' }),
  X_CLIENT_SECRET: text('', { ...platforms, description: 'Client secret of that X app, for a confidential client (empty for a public one).' }),
  X_POLL_INTERVAL_S: seconds(120, { ...platforms, min: 15, description: 'Seconds between two looks at the X mentions timeline.' }),
  TWITCH_CLIENT_ID: text('', { ...platforms, description: 'Client id of the Twitch application whose user token TWITCH_ACCESS_TOKEN is.' }),
  TWITCH_ACCESS_TOKEN: text('', { ...platforms, description: 'Twitch user access token (scopes user:read:chat, user:write:chat) of the account that chats.' }),
  TWITCH_CHANNEL: text('', { ...platforms, description: 'Login name of the Twitch channel whose chat Anima reads and answers.' }),
  TWITCH_EVENTSUB_URL: text('wss://eventsub.wss.twitch.tv/ws', { ...platforms, description: 'Twitch EventSub WebSocket address.' }),
  TWITCH_API_BASE_URL: text('https://api.twitch.tv/helix', { ...platforms, description: 'Twitch Helix API base.' }),
  TWITCH_AUTH_BASE_URL: text('https://id.twitch.tv/oauth2', {
    ...platforms,
    description: 'Twitch authentication base: TWITCH_ACCESS_TOKEN is validated there (/validate) at start and hourly.',
  }),
  YOUTUBE_LIVE_VIDEO_ID: text('', { ...platforms, description: 'Video id of the YouTube live stream whose chat Anima reads.' }),
  YOUTUBE_API_KEY: text('', { ...platforms, description: 'YouTube Data API key: reads the live chat only (or YOUTUBE_ACCESS_TOKEN).' }),
  YOUTUBE_ACCESS_TOKEN: text('', {
    ...platforms,
    description: 'YouTube OAuth access token (scope youtube.force-ssl): reads the live chat and answers in it.',
  }),
  YOUTUBE_API_BASE_URL: text('https://www.googleapis.com/youtube/v3', { ...platforms, description: 'YouTube Data API base.' }),
  YOUTUBE_REFRESH_TOKEN: text('', {
    ...platforms,
    description: 'YouTube OAuth refresh token: renews the access token when it expires (with YOUTUBE_CLIENT_ID and YOUTUBE_CLIENT_SECRET).',
  }),
  YOUTUBE_CLIENT_ID: text('', { ...platforms, description: 'Client id of the Google OAuth client the YouTube refresh token belongs to.' }),
  YOUTUBE_CLIENT_SECRET: text('', { ...platforms, description: 'Client secret of that Google OAuth client.' }),
  YOUTUBE_AUTH_BASE_URL: text('https://oauth2.googleapis.com', { ...platforms, description: 'Google OAuth token endpoint host (/token).' }),
  STREAM_MODE: flag(true, {
    ...platforms,
    description: 'Live-stream chat (Twitch, YouTube) is answered at a pace, the best message first, spoken by the avatar; false answers every message.',
  }),
  STREAM_ANSWER_INTERVAL_S: seconds(20, { ...platforms, min: 1, description: 'Seconds between two answers to live-stream chat in stream mode.' }),
  STREAM_BLOCKED_WORDS: list('', {
    ...platforms,
    description: 'Words and phrases (comma-separated, any case) whose messages are never answered in stream mode.',
  }),
} as const;
