import { join } from 'node:path';
import { z } from 'zod';
import {
  type ActionOrigin,
  defineInterface,
  messageActionOf,
  OAuthToken,
  PolledAccount,
  type RefreshGrant,
  splitMessage,
} from '../../src/components/contract.ts';
import { XApi, XAuthError } from './api.ts';
import { MentionReader } from './mentions.ts';
import { INTERFACE_ID, parsePath } from './paths.ts';
import { RefreshTokenFile } from './refresh-token-file.ts';

const MESSAGE_ACTION = messageActionOf(INTERFACE_ID);
/** A post's length on X, in characters (weighted counting aside). */
const MAX_TEXT = 280;
const CONNECTION_KEYS = ['X_USERNAME', 'X_ACCESS_TOKEN', 'X_API_BASE_URL', 'X_REFRESH_TOKEN', 'X_CLIENT_ID', 'X_CLIENT_SECRET'];

const MessagePayloadSchema = z.object({ text: z.string().min(1), interface_path: z.string().min(1) });
const OriginSchema = z.object({ x: z.object({ tweet_id: z.string() }) });

/** The tweet to answer: the mention itself, or else the thread's first tweet. */
function inReplyTo(origin: ActionOrigin | undefined, path: string, conversationId: string): string {
  const parsed = origin?.interfacePath === path ? OriginSchema.safeParse(origin.metadata) : undefined;
  return parsed?.success ? parsed.data.x.tweet_id : conversationId;
}

/**
 * X (development): answers the mentions of X_USERNAME, read every X_POLL_INTERVAL_S from the API v2
 * mentions timeline with `since_id`, as replies (`POST /2/tweets`, a thread of 280-character parts
 * when longer), with the account's user access token X_ACCESS_TOKEN, renewed with X_REFRESH_TOKEN (and
 * X_CLIENT_ID, X_CLIENT_SECRET for a confidential app) at `POST /2/oauth2/token` when X answers 401.
 */
export default defineInterface({
  interfaceId: INTERFACE_ID,
  description: 'X account (development): answers mentions of X_USERNAME with replies (X_ACCESS_TOKEN).',
  requiredConfig: ['X_USERNAME', 'X_ACCESS_TOKEN'],
  chatPlatform: true,
  needs: ['chain', 'clock'],
  create: ({ services: { chain, clock }, config, logger, paths, reportConnection }) => {
    const reader = new MentionReader({ chain, logger, stateFile: join(paths.backups, 'x', 'since-id.json'), username: () => config.get('X_USERNAME') });
    const refreshTokens = new RefreshTokenFile(join(paths.backups, 'x', 'refresh-token.json'));
    const grant = (): RefreshGrant | undefined => {
      const [configured, clientId, clientSecret] = [
        config.get('X_REFRESH_TOKEN').trim(),
        config.get('X_CLIENT_ID').trim(),
        config.get('X_CLIENT_SECRET').trim(),
      ];
      if (!configured || !clientId) return undefined;
      const tokenUrl = `${config.get('X_API_BASE_URL').replace(/\/+$/, '')}/2/oauth2/token`;
      return { tokenUrl, clientId, clientSecret, refreshToken: refreshTokens.latest(configured), clientAuth: 'basic' };
    };
    const account = new PolledAccount({
      platform: 'X',
      looking: 'reading the X mentions',
      connectionKeys: CONNECTION_KEYS,
      context: { config, logger, reportConnection },
      clock,
      intervalMs: () => config.get('X_POLL_INTERVAL_S') * 1000,
      connect: (signal) => {
        const token = new OAuthToken({
          initial: config.get('X_ACCESS_TOKEN').trim(),
          grant,
          clock,
          rotated: (refreshToken) => refreshTokens.keep(config.get('X_REFRESH_TOKEN').trim(), refreshToken),
        });
        return new XApi({ token, baseUrl: config.get('X_API_BASE_URL') }, { clock, logger, signal });
      },
      look: async (api) => {
        await reader.look(api);
        return `@${reader.account?.username ?? config.get('X_USERNAME')}`;
      },
      refused: (error) => error instanceof XAuthError,
      forget: () => reader.forget(),
    });

    return {
      actions: {
        [MESSAGE_ACTION]: {
          schema: MessagePayloadSchema,
          brief: 'Reply on X in a thread (a plain text reply does this by itself).',
          examples: [{ text: 'Thanks for the mention!', interface_path: 'x/1790000000000000000' }],
          instructions: 'Keep it under 280 characters: a longer answer becomes a thread of several posts.',
        },
      },
      validatePayload: (_type, payload) =>
        typeof payload.interface_path === 'string' && !parsePath(payload.interface_path)
          ? [`payload.interface_path must be ${INTERFACE_ID}/<conversation_id>`]
          : [],
      handleAction: async (_type, payload, origin) => {
        const message = MessagePayloadSchema.parse(payload);
        const conversationId = parsePath(message.interface_path);
        if (conversationId === undefined) return;
        let target = inReplyTo(origin, message.interface_path, conversationId);
        // Each part answers the one before, so a long answer reads as one thread.
        for (const part of splitMessage(message.text, MAX_TEXT)) target = await account.api.reply(part, target);
      },
      start: async () => {
        await refreshTokens.load();
        account.start();
      },
      stop: () => account.stop(),
    };
  },
});
