export const INTERFACE_ID = 'matrix';

/** A conversation on Matrix: a room, or a thread of it (named by its root event). */
export interface Conversation {
  roomId: string;
  threadRoot?: string;
}

// A room id is `!opaque:server` (the server name holds no `/`); an event id is `$opaque`, which room
// version 3 encodes in standard base64, so a `/` is possible there and the thread root takes the rest.
const PATH = /^matrix\/(![^/\s]+:[^/\s]+)(?:\/(\$\S+))?$/;

/** `matrix/<room_id>` or `matrix/<room_id>/<thread_root_event_id>`, as the contract names them. */
export function pathOf({ roomId, threadRoot }: Conversation): string {
  return threadRoot === undefined ? `${INTERFACE_ID}/${roomId}` : `${INTERFACE_ID}/${roomId}/${threadRoot}`;
}

/** The conversation of a Matrix interface path, or undefined for any other path. */
export function conversationOf(path: string): Conversation | undefined {
  const match = PATH.exec(path);
  if (!match?.[1]) return undefined;
  return match[2] === undefined ? { roomId: match[1] } : { roomId: match[1], threadRoot: match[2] };
}
