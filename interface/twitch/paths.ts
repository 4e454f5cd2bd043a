export const INTERFACE_ID = 'twitch';

const PATH = /^twitch\/([a-z0-9_]{1,25})$/;

/** `twitch/<broadcaster_login>`: one channel's chat is one conversation. */
export const pathOf = (login: string) => `${INTERFACE_ID}/${login.toLowerCase()}`;

/** The channel login of a Twitch interface path, or undefined for any other path. */
export const loginOf = (path: string): string | undefined => PATH.exec(path)?.[1];
