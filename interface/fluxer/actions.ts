import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { type ActionSpec, type AllowedFolders, localFileOf, messageActionOf } from '../../src/components/contract.ts';
import { conversationOf, INTERFACE_ID } from './paths.ts';

export const MESSAGE_ACTION = messageActionOf(INTERFACE_ID);
export const MEDIA_ACTION = `send_media_${INTERFACE_ID}`;
export const FILE_ACTION = `send_file_${INTERFACE_ID}`;

export const MessagePayloadSchema = z.object({ text: z.string().min(1), interface_path: z.string().min(1), media: z.string().min(1).optional() });
export const MediaPayloadSchema = z.object({ file_url: z.string().min(1), interface_path: z.string().min(1), caption: z.string().optional() });
export const FilePayloadSchema = z.object({ file_path: z.string().min(1), interface_path: z.string().min(1), caption: z.string().optional() });

const EXAMPLE_PATH = 'fluxer/1234567890123456789/1234567890123456790';

/** The spec's platform actions, as the model sees them. */
export const actions: Record<string, ActionSpec> = {
  [MESSAGE_ACTION]: {
    schema: MessagePayloadSchema,
    brief: 'Send a message to a Fluxer channel, thread or DM (a plain text reply does this by itself).',
    examples: [{ text: 'Hello!', interface_path: EXAMPLE_PATH }],
    instructions: 'Fluxer renders Markdown. Messages over 2000 characters are split. `media` may be a web link or a file from the allowed folders.',
  },
  [MEDIA_ACTION]: {
    schema: MediaPayloadSchema,
    brief: 'Post a picture, sound or file to a Fluxer channel: a web link, or a file:// URL of generated speech.',
    examples: [{ file_url: 'https://example.org/cat.png', interface_path: EXAMPLE_PATH, caption: 'A cat.' }],
  },
  [FILE_ACTION]: {
    schema: FilePayloadSchema,
    brief: 'Send a file from the shared folder (or generated speech) to a Fluxer channel as an attachment.',
    examples: [{ file_path: 'notes.txt', interface_path: EXAMPLE_PATH, caption: 'Here are the notes.' }],
    instructions:
      'file_path names a file of the shared folder (a bare name like "notes.txt"), or a file:// URL of generated speech; no other file of the machine can be sent.',
  },
};

/** The URL of a file the model names: a URL as given, a path taken from the shared folder (and checked like any other). */
export function fileUrlOf(filePath: string, sharedFolder: string): string {
  return /^(https?|file):/i.test(filePath) ? filePath : pathToFileURL(resolve(sharedFolder, filePath)).href;
}

/**
 * validate_payload: the path must be a Fluxer channel, and a file one the interface may post (a web
 * link, or a file inside the allowed folders; never another file of this machine).
 */
export function validatePayload(payload: Record<string, unknown>, allowed: AllowedFolders, sharedFolder: string): string[] {
  const errors: string[] = [];
  if (typeof payload.interface_path === 'string' && !conversationOf(payload.interface_path)) {
    errors.push('payload.interface_path must be fluxer/<guild_id>/<channel_id> or fluxer/dm/<channel_id>');
  }
  for (const key of ['media', 'file_url', 'file_path'] as const) {
    const value = payload[key];
    if (typeof value !== 'string') continue;
    const url = key === 'file_path' ? fileUrlOf(value, sharedFolder) : value;
    if (!/^https?:\/\/\S+$/i.test(url) && localFileOf(url, allowed) === undefined) {
      errors.push(`payload.${key} must be an http(s):// URL or a file in ${allowed.label}`);
    }
  }
  return errors;
}
