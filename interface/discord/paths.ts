/** The interface id of the contract, and the first segment of every Discord conversation's path. */
export const INTERFACE_ID = 'discord';

/** A Discord channel (a thread is a channel of its own), in a guild or a DM. */
export interface Conversation {
  /** Undefined for a DM. */
  guildId?: string;
  channelId: string;
}

const PATH = new RegExp(`^${INTERFACE_ID}/(dm|\\d{1,20})/(\\d{1,20})$`);

/** `discord/<guild_id>/<channel_id>`, or `discord/dm/<channel_id>`. */
export function pathOf(conversation: Conversation): string {
  return `${INTERFACE_ID}/${conversation.guildId ?? 'dm'}/${conversation.channelId}`;
}

export function parsePath(path: string): Conversation | undefined {
  const match = PATH.exec(path);
  if (!match?.[2]) return undefined;
  return match[1] === 'dm' ? { channelId: match[2] } : { guildId: match[1], channelId: match[2] };
}
