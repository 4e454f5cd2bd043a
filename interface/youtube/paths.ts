export const INTERFACE_ID = 'youtube';

const PATH = /^youtube\/([A-Za-z0-9_-]{6,64})$/;

/** `youtube/<video_id>`: one live stream's chat is one conversation. */
export const pathOf = (videoId: string) => `${INTERFACE_ID}/${videoId}`;

/** The video id of a YouTube interface path, or undefined for any other path. */
export const videoOf = (path: string): string | undefined => PATH.exec(path)?.[1];
