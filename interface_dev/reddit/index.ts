import { z } from 'zod';
import { type ActionOrigin, defineInterface, messageActionOf, PolledAccount, splitMessage } from '../../src/components/contract.ts';
import { RedditApi, RedditAuthError, type RedditSettings } from './api.ts';
import { type RedditOrigin, readInbox } from './inbox.ts';
import { type Conversation, INTERFACE_ID, parsePath } from './paths.ts';

const MESSAGE_ACTION = messageActionOf(INTERFACE_ID);
const POST_ACTION = `post_${INTERFACE_ID}`;
/** Reddit's longest comment or message body, in characters. */
const MAX_TEXT = 10_000;
const CONNECTION_KEYS = [
  'REDDIT_CLIENT_ID',
  'REDDIT_CLIENT_SECRET',
  'REDDIT_USERNAME',
  'REDDIT_PASSWORD',
  'REDDIT_USER_AGENT',
  'REDDIT_API_BASE_URL',
  'REDDIT_AUTH_BASE_URL',
];

const MessagePayloadSchema = z.object({ text: z.string().min(1), interface_path: z.string().min(1) });
const PostPayloadSchema = z.object({
  subreddit: z.string().regex(/^[A-Za-z0-9_]{2,21}$/),
  title: z.string().min(1).max(300),
  text: z.string().max(40_000).default(''),
});
const OriginSchema = z.object({ reddit: z.object({ fullname: z.string(), author: z.string(), subject: z.string() }) });

/** The message being answered, when the answer goes to its conversation. */
function answered(origin: ActionOrigin | undefined, path: string): RedditOrigin | undefined {
  const parsed = origin?.interfacePath === path ? OriginSchema.safeParse(origin.metadata) : undefined;
  return parsed?.success ? parsed.data.reddit : undefined;
}

const subjectOf = (origin: RedditOrigin | undefined) =>
  origin && origin.subject !== '' ? (origin.subject.startsWith('re: ') ? origin.subject : `re: ${origin.subject}`) : 'A message';

/**
 * Reddit (development): answers mentions, replies and private messages of the account, read from the
 * unread inbox every REDDIT_POLL_INTERVAL_S through the OAuth2 API of a "script" app; answers as a
 * comment (`/api/comment`) or a message (`/api/compose`); the operator's model may also submit a post.
 */
export default defineInterface({
  interfaceId: INTERFACE_ID,
  description: 'Reddit account (development): answers mentions, comment replies and private messages.',
  requiredConfig: ['REDDIT_CLIENT_ID', 'REDDIT_CLIENT_SECRET', 'REDDIT_USERNAME', 'REDDIT_PASSWORD', 'REDDIT_USER_AGENT'],
  chatPlatform: true,
  needs: ['chain', 'clock'],
  create: ({ services: { chain, clock }, config, logger, reportConnection }) => {
    const settings = (): RedditSettings => ({
      clientId: config.get('REDDIT_CLIENT_ID'),
      clientSecret: config.get('REDDIT_CLIENT_SECRET'),
      username: config.get('REDDIT_USERNAME'),
      password: config.get('REDDIT_PASSWORD'),
      userAgent: config.get('REDDIT_USER_AGENT'),
      apiBaseUrl: config.get('REDDIT_API_BASE_URL'),
      authBaseUrl: config.get('REDDIT_AUTH_BASE_URL'),
    });
    const account = new PolledAccount({
      platform: 'Reddit',
      looking: 'reading the Reddit inbox',
      connectionKeys: CONNECTION_KEYS,
      context: { config, logger, reportConnection },
      clock,
      intervalMs: () => config.get('REDDIT_POLL_INTERVAL_S') * 1000,
      connect: (signal) => new RedditApi(settings(), { clock, logger, signal }),
      look: async (api) => {
        await readInbox(api, { chain, logger });
        return `u/${settings().username}`;
      },
      refused: (error) => error instanceof RedditAuthError,
    });

    const send = async (conversation: Conversation, text: string, origin: RedditOrigin | undefined) => {
      for (const part of splitMessage(text, MAX_TEXT)) {
        if (conversation.kind === 'dm') await account.api.post('/api/compose', { to: conversation.user, subject: subjectOf(origin), text: part });
        else await account.api.post('/api/comment', { thing_id: origin?.fullname ?? `t3_${conversation.postId}`, text: part });
      }
    };

    return {
      actions: {
        [MESSAGE_ACTION]: {
          schema: MessagePayloadSchema,
          brief: 'Answer on Reddit (a plain text reply does this by itself): a comment under a post, or a private message.',
          examples: [
            { text: 'Thanks for the mention!', interface_path: 'reddit/r/AskReddit/1abcde' },
            { text: 'Hello!', interface_path: 'reddit/dm/some_user' },
          ],
          instructions: 'Reddit shows Markdown.',
        },
        [POST_ACTION]: {
          schema: PostPayloadSchema,
          brief: 'Submit a text post to a subreddit as the account.',
          examples: [{ subreddit: 'test', title: 'Hello Reddit', text: 'My first post.' }],
          operatorOnly: true,
        },
      },
      validatePayload: (type, payload) =>
        type === MESSAGE_ACTION && typeof payload.interface_path === 'string' && !parsePath(payload.interface_path)
          ? [`payload.interface_path must be ${INTERFACE_ID}/r/<subreddit>/<post_id> or ${INTERFACE_ID}/dm/<user>`]
          : [],
      handleAction: async (type, payload, origin) => {
        if (type === POST_ACTION) {
          const post = PostPayloadSchema.parse(payload);
          await account.api.post('/api/submit', { sr: post.subreddit, kind: 'self', title: post.title, text: post.text });
          return;
        }
        const message = MessagePayloadSchema.parse(payload);
        const conversation = parsePath(message.interface_path);
        if (conversation) await send(conversation, message.text, answered(origin, message.interface_path));
      },
      start: () => account.start(),
      stop: () => account.stop(),
    };
  },
});
