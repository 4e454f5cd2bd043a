import { choice, file, flag, integer, list, seconds, text } from '../define.ts';

const server = { group: 'server', restart: true } as const;

export const serverVariables = {
  APP_WEBUI_HOST: text('127.0.0.1', { ...server, description: 'Address the web app listens on (0.0.0.0 for every interface).' }),
  APP_WEBUI_HTTP_PORT: integer(8001, { ...server, min: 0, max: 65535, description: 'HTTP port of the web app; 0 picks any free port.' }),
  APP_WEBUI_HTTPS_PORT: integer(8000, { ...server, min: 0, max: 65535, description: 'HTTPS port, used only when both TLS files are set.' }),
  APP_WEBUI_TLS_CERT: file({ ...server, label: 'HTTPS certificate', description: 'PEM certificate file for the HTTPS listener.' }),
  APP_WEBUI_TLS_KEY: file({ ...server, label: 'HTTPS private key', description: 'PEM private key file for the HTTPS listener.' }),
  APP_API_KEY: text('', { group: 'server', description: 'Shared secret that trusts a non-loopback client (Bearer or X-API-Key).' }),
  APP_TRUST_LOOPBACK: flag(true, { group: 'server', description: 'Trust loopback clients without a key; false behind a reverse proxy.' }),
  APP_ALLOWED_HOSTS: list('', {
    group: 'server',
    description: 'Extra host names (Host header) that loopback trust accepts, comma-separated; e.g. a local alias.',
  }),
  APP_ALLOWED_ORIGINS: list('', {
    group: 'server',
    description: 'Extra browser origins trusted from loopback on the web port, comma-separated; `*` matches any port or extension id.',
  }),
  APP_RATE_LIMIT_PER_MINUTE: integer(600, { group: 'server', min: 1, description: 'Requests per minute allowed to one non-loopback client on the HTTP API.' }),
  APP_BODY_LIMIT_BYTES: integer(1_048_576, { ...server, min: 1024, description: 'Largest JSON request body accepted.' }),
  APP_UPLOAD_MAX_BYTES: integer(52_428_800, { group: 'server', min: 1, description: 'Largest file accepted by upload endpoints.' }),
  APP_UPLOAD_IDLE_TIMEOUT_S: seconds(60, {
    group: 'server',
    min: 1,
    description: 'An upload that sends nothing for this long is cut off and its partial file removed.',
  }),
  APP_HEADERS_TIMEOUT_S: seconds(20, {
    ...server,
    min: 1,
    description: 'A client must send its request headers within this time, or is cut off (408); both ports.',
  }),
  APP_REQUEST_TIMEOUT_S: seconds(300, {
    ...server,
    min: 1,
    description: 'A client must send its whole request, an upload included, within this time, or is cut off (408); both ports.',
  }),
  LOGGING_LEVEL: choice(['fatal', 'error', 'warn', 'info', 'debug', 'trace'], 'info', { group: 'server', description: 'Log level.' }),
  LOG_FORMAT: choice(['pretty', 'json'], 'pretty', {
    ...server,
    // The logger exists before the database that holds saved entries is open.
    environmentOnly: true,
    description: 'Log lines on stdout: pretty (readable) or json (one object a line, for a log collector).',
  }),
  WEB_DEBUG: flag(false, { ...server, description: 'Value 1 enables the WS /logs debug stream.' }),
} as const;

export const databaseVariables = {
  DATABASE_URL: text('sqlite:backups/anima.sqlite', {
    group: 'database',
    restart: true,
    environmentOnly: true,
    description: 'sqlite:<path> or mysql://user:password@host:port/database.',
  }),
} as const;

export const storageVariables = {
  SKINS_DIR: text('skins', { group: 'storage', restart: true, description: 'Folder of avatar skins.' }),
  BACKUPS_DIR: text('backups', { group: 'storage', restart: true, description: 'Folder of runtime data: session id, archives, database backups.' }),
} as const;

export const historyVariables = {
  CHAT_HISTORY: integer(10, { group: 'history', min: 1, description: 'Messages kept per conversation (alias CHAT_HISTORY_LIMIT).' }),
  MULTI_SESSION: flag(false, { group: 'history', restart: true, description: 'Experimental: one web session per socket, nothing kept across restarts.' }),
} as const;

export const attentionVariables = {
  TRAINER_IDS: list('', { group: 'attention', description: 'Operators, as <interface_id>:<user_id>, comma-separated.' }),
  CHAT_SLEEP_COMMANDS: list('', { group: 'attention', description: 'Phrases that put a chat to sleep, comma-separated.' }),
  CHAT_WAKE_COMMANDS: list('', { group: 'attention', description: 'Phrases that wake a chat, comma-separated.' }),
  CHAT_RATE_LIMIT_BURST: integer(5, {
    group: 'attention',
    min: 1,
    description: 'Messages one user may send back to back before the rate limit applies (trainers are exempt).',
  }),
  CHAT_RATE_LIMIT_PER_MINUTE: integer(20, { group: 'attention', min: 1, description: 'Messages per minute one user may send after the burst.' }),
  CHAT_MAX_PARALLEL: integer(4, {
    group: 'attention',
    min: 1,
    max: 256,
    description: 'Conversations answered at the same time; more wait their turn (raise it when the model server takes more parallel requests).',
  }),
} as const;

export const systemVariables = {
  PROMPT_OVERRIDE: text('', { group: 'system', description: 'Text that replaces the persona prompt; empty keeps the persona.' }),
  PERSONA_LOCATION: text('', { group: 'system', description: 'Where the persona lives (weather and time plugins).' }),
  LOGCHAT_INTERFACE_PATH: text('', { group: 'system', description: 'Conversation that receives warnings and errors; empty disables logchat.' }),
  LOGCHAT_LEVEL: choice(['error', 'warn', 'info'], 'warn', { group: 'system', description: 'Lowest level forwarded to the logchat.' }),
  STREAMER_URL: text('', { group: 'system', description: 'Base URL of the remote-streaming adapter; empty disables it.' }),
  PERSONA_TIMEZONE: text('', {
    group: 'system',
    description: 'IANA time zone of the persona (time plugin), for example Europe/Rome; empty uses the server zone.',
  }),
  WEATHER_PROVIDER_URL: text('https://api.open-meteo.com/v1/forecast', {
    group: 'system',
    description: 'Weather endpoint speaking the Open-Meteo forecast API.',
  }),
  WEATHER_LATITUDE: text('', { group: 'system', description: 'Latitude of the persona for the weather plugin (required by it).' }),
  WEATHER_LONGITUDE: text('', { group: 'system', description: 'Longitude of the persona for the weather plugin (required by it).' }),
  WEATHER_CACHE_S: seconds(600, { group: 'system', min: 0, whole: true, description: 'Seconds a weather reading is reused before asking the provider again.' }),
} as const;
