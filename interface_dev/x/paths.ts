/** The interface id of the contract (`<PLATFORM>` X), and the first segment of its paths. */
export const INTERFACE_ID = 'x';

const PATH = new RegExp(`^${INTERFACE_ID}/(\\d{1,20})$`);

/** `x/<conversation_id>`: a thread of tweets, named by its first tweet. */
export const pathOf = (conversationId: string): string => `${INTERFACE_ID}/${conversationId}`;

/** The conversation id of a path, or undefined. */
export const parsePath = (path: string): string | undefined => PATH.exec(path)?.[1];
