/** The interface id of the user-account bot, and the first segment of its paths: `telegram_user/<user_id>`. */
export const INTERFACE_ID = 'telegram_user';

const PATH = new RegExp(`^${INTERFACE_ID}/(\\d{1,20})$`);

export const pathOf = (peerId: string): string => `${INTERFACE_ID}/${peerId}`;

/** The user id of a private chat's path, or undefined. */
export const parsePath = (path: string): string | undefined => PATH.exec(path)?.[1];
