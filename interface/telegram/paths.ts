/** The interface id of the contract, and the first segment of every Telegram conversation's path. */
export const INTERFACE_ID = 'telegram_bot';

/** A Telegram chat, and the forum topic within it when there is one. */
export interface Conversation {
  chatId: number;
  threadId?: number;
}

const PATH = new RegExp(`^${INTERFACE_ID}/(-?\\d{1,16})(?:/(\\d{1,16}))?$`);

/** `telegram_bot/<chat_id>`, or `telegram_bot/<chat_id>/<thread_id>` for a forum topic. */
export function pathOf(conversation: Conversation): string {
  return conversation.threadId === undefined ? `${INTERFACE_ID}/${conversation.chatId}` : `${INTERFACE_ID}/${conversation.chatId}/${conversation.threadId}`;
}

export function parsePath(path: string): Conversation | undefined {
  const match = PATH.exec(path);
  if (!match) return undefined;
  return match[2] === undefined ? { chatId: Number(match[1]) } : { chatId: Number(match[1]), threadId: Number(match[2]) };
}
