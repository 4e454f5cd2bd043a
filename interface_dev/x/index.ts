import { join } from 'node:path';
import { z } from 'zod';
import { type ActionOrigin, defineInterface, messageActionOf, PollingLoop, splitMessage } from '../../src/components/contract.ts';
import { XApi, XAuthError } from './api.ts';
import { MentionReader } from './mentions.ts';
import { INTERFACE_ID, parsePath } from './paths.ts';

const MESSAGE_ACTION = messageActionOf(INTERFACE_ID);
/** A post's length on X, in characters (weighted counting aside). */
const MAX_TEXT = 280;
const CONNECTION_KEYS = ['X_USERNAME', 'X_ACCESS_TOKEN', 'X_API_BASE_URL'];

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
 * when longer), with the account's user access token X_ACCESS_TOKEN.
 */
export default defineInterface({
  interfaceId: INTERFACE_ID,
  description: 'X account (development): answers mentions of X_USERNAME with replies (X_ACCESS_TOKEN).',
  requiredConfig: ['X_USERNAME', 'X_ACCESS_TOKEN'],
  chatPlatform: true,
  needs: ['chain', 'clock'],
  create: ({ services: { chain, clock }, config, logger, paths, reportConnection }) => {
    const reader = new MentionReader({ chain, logger, stateFile: join(paths.backups, 'x', 'since-id.json'), username: () => config.get('X_USERNAME') });
    let stopping = new AbortController();
    const connect = () =>
      new XApi({ token: config.get('X_ACCESS_TOKEN').trim(), baseUrl: config.get('X_API_BASE_URL') }, { clock, logger, signal: stopping.signal });
    let api = connect();
    const renew = () => {
      stopping.abort();
      stopping = new AbortController();
      api = connect();
      reader.forget();
    };
    const polling = new PollingLoop({
      clock,
      intervalMs: () => config.get('X_POLL_INTERVAL_S') * 1000,
      poll: async () => {
        await reader.look(api);
        reportConnection({ state: 'connected', detail: `@${reader.account?.username ?? config.get('X_USERNAME')}` });
      },
      failed: (error) => {
        const reason = error instanceof Error ? error.message : String(error);
        const refused = error instanceof XAuthError;
        if (refused) logger.error({ reason }, 'X refused the token');
        else logger.warn({ reason }, 'reading the X mentions failed; trying again at the next poll');
        reportConnection({ state: 'disconnected', detail: refused ? reason : `${reason}; trying again at the next poll` });
        return refused ? 'stop' : 'retry';
      },
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
        for (const part of splitMessage(message.text, MAX_TEXT)) target = await api.reply(part, target);
      },
      start: () => {
        config.onChange(CONNECTION_KEYS, () => {
          logger.info('the X settings changed; connecting again');
          renew();
          polling.restart();
        });
        renew();
        reportConnection({ state: 'connecting' });
        polling.start();
      },
      stop: () => {
        polling.stop();
        stopping.abort();
      },
    };
  },
});
