export const INTERFACE_ID = 'fluxer';

/** A Fluxer channel (a thread is a channel too), in a guild or a direct-message channel. */
export interface Conversation {
  /** Undefined for a direct-message channel. */
  guildId?: string;
  channelId: string;
}

const PATH = /^fluxer\/(dm|\d{1,20})\/(\d{1,20})$/;

/** `fluxer/<guild_id>/<channel_id>` or `fluxer/dm/<channel_id>`, as the contract names them. */
export function pathOf({ guildId, channelId }: Conversation): string {
  return `${INTERFACE_ID}/${guildId ?? 'dm'}/${channelId}`;
}

/** The conversation of a Fluxer interface path, or undefined for any other path. */
export function conversationOf(path: string): Conversation | undefined {
  const match = PATH.exec(path);
  if (!match?.[1] || !match[2]) return undefined;
  return match[1] === 'dm' ? { channelId: match[2] } : { guildId: match[1], channelId: match[2] };
}
