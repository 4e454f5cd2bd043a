/** The interface id of the contract (`<PLATFORM>` REDDIT), and the first segment of its paths. */
export const INTERFACE_ID = 'reddit';

/** The comments under one post, or the private messages with one user. */
export type Conversation = { kind: 'post'; subreddit: string; postId: string } | { kind: 'dm'; user: string };

const NAME = '[A-Za-z0-9_-]{1,32}';
const POST = new RegExp(`^${INTERFACE_ID}/r/(${NAME})/([a-z0-9]{1,16})$`);
const DM = new RegExp(`^${INTERFACE_ID}/dm/(${NAME})$`);

/** `reddit/r/<subreddit>/<post_id>` or `reddit/dm/<user>`. */
export function pathOf(conversation: Conversation): string {
  return conversation.kind === 'post' ? `${INTERFACE_ID}/r/${conversation.subreddit}/${conversation.postId}` : `${INTERFACE_ID}/dm/${conversation.user}`;
}

export function parsePath(path: string): Conversation | undefined {
  const post = POST.exec(path);
  if (post?.[1] && post[2]) return { kind: 'post', subreddit: post[1], postId: post[2] };
  const dm = DM.exec(path);
  return dm?.[1] ? { kind: 'dm', user: dm[1] } : undefined;
}
