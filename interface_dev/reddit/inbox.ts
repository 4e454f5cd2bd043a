import { z } from 'zod';
import type { ChainPort, ComponentContext } from '../../src/components/contract.ts';
import type { RedditApi } from './api.ts';
import { type Conversation, INTERFACE_ID, pathOf } from './paths.ts';

/** A comment (`t1`: a mention, a reply to the account) or a private message (`t4`) of the unread inbox. */
const ItemSchema = z.object({
  kind: z.enum(['t1', 't4']),
  data: z.object({
    name: z.string(),
    author: z.string().nullable(),
    body: z.string(),
    subject: z.string().default(''),
    type: z.string().optional(),
    subreddit: z.string().nullable().optional(),
    context: z.string().optional(),
  }),
});
const ListingSchema = z.object({ data: z.object({ children: z.array(z.unknown()) }) });
export type InboxItem = z.infer<typeof ItemSchema>;

/** What an answer needs to reach its author: the thing to comment on, or whom to write. */
export interface RedditOrigin {
  fullname: string;
  author: string;
  subject: string;
}

/** The post a comment sits under, from its context link `/r/<sub>/comments/<post>/<slug>/<comment>/`. */
function conversationOf(item: InboxItem): Conversation | undefined {
  if (item.kind === 't4') return item.data.author ? { kind: 'dm', user: item.data.author } : undefined;
  const match = /^\/r\/([^/]+)\/comments\/([a-z0-9]+)\//.exec(item.data.context ?? '');
  return match?.[1] && match[2] ? { kind: 'post', subreddit: match[1], postId: match[2] } : undefined;
}

/**
 * One look at the unread inbox: each mention, reply and private message goes to the chain (comments are
 * public, so they count as a group conversation that answers what addresses the account), then everything
 * read is marked read, so a restart never answers it twice. Returns how many were handed on.
 */
export async function readInbox(api: RedditApi, deps: { chain: ChainPort; logger: ComponentContext['logger'] }): Promise<number> {
  const listing = ListingSchema.parse(await api.get('/message/unread', { limit: '100' }));
  const items = listing.data.children.flatMap((child) => {
    const parsed = ItemSchema.safeParse(child);
    return parsed.success ? [parsed.data] : [];
  });
  if (items.length === 0) return 0;
  let handed = 0;
  for (const item of items) {
    const conversation = conversationOf(item);
    const author = item.data.author;
    if (!conversation || !author || item.data.body.trim() === '') continue;
    const origin: RedditOrigin = { fullname: item.data.name, author, subject: item.data.subject };
    const result = await deps.chain.submit({
      interfaceId: INTERFACE_ID,
      interfacePath: pathOf(conversation),
      text: item.data.body,
      senderId: author,
      senderName: author,
      group: item.kind === 't1',
      mentioned: item.data.type === 'username_mention',
      replyToSelf: item.data.type === 'comment_reply' || item.data.type === 'post_reply',
      metadata: { reddit: origin },
    });
    if (result.status === 'queued') handed += 1;
    else deps.logger.debug({ fullname: item.data.name, status: result.status }, 'a Reddit message was not queued');
  }
  await api.post('/api/read_message', { id: items.map((item) => item.data.name).join(',') });
  return handed;
}
