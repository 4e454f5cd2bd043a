/**
 * The unified conversation address `<interface>/<chat_id>/<thread_id>` (or `<interface>/<chat_id>`) and
 * its conversion to and from the older chat_id/thread_id addressing, which interfaces still speak.
 */

export const INTERFACE_PATH_MAX = 512;

export interface LegacyAddress {
  interface: string;
  chat_id: string;
  thread_id: string | null;
}

export class InvalidInterfacePathError extends Error {}

/** A thread id of null, undefined or '' means "no thread", as the legacy layout stored it. */
export function toInterfacePath(interfaceId: string, chatId: string | number, threadId?: string | number | null): string {
  const chat = String(chatId);
  const thread = threadId === null || threadId === undefined ? '' : String(threadId);
  if (interfaceId === '' || interfaceId.includes('/')) throw new InvalidInterfacePathError(`Invalid interface id: "${interfaceId}"`);
  if (chat === '') throw new InvalidInterfacePathError('A chat id is required');
  const path = thread === '' ? `${interfaceId}/${chat}` : `${interfaceId}/${chat}/${thread}`;
  if (path.length > INTERFACE_PATH_MAX) throw new InvalidInterfacePathError(`Interface path longer than ${INTERFACE_PATH_MAX} characters`);
  return path;
}

/**
 * The inverse of toInterfacePath. With more than three segments the chat id is everything between the
 * first and the last one, so a chat id holding a slash still round-trips when a thread is present.
 * Returns undefined for a path without a chat segment.
 */
export function fromInterfacePath(path: string): LegacyAddress | undefined {
  const segments = path.split('/');
  const [interfaceId, ...rest] = segments;
  if (!interfaceId || rest.length === 0 || rest[0] === '') return undefined;
  if (rest.length === 1) return { interface: interfaceId, chat_id: rest[0] ?? '', thread_id: null };
  return { interface: interfaceId, chat_id: rest.slice(0, -1).join('/'), thread_id: rest.at(-1) || null };
}
