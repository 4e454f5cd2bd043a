import { z } from 'zod';
import { localFileOf, messageActionOf, type ActionSpec } from '../../src/components/contract.ts';
import { conversationOf, INTERFACE_ID } from './paths.ts';

export const MESSAGE_ACTION = messageActionOf(INTERFACE_ID);
export const MEDIA_ACTION = `send_media_${INTERFACE_ID}`;

export const MessagePayloadSchema = z.object({ text: z.string().min(1), interface_path: z.string().min(1), media: z.string().min(1).optional() });
export const MediaPayloadSchema = z.object({ file_url: z.string().min(1), interface_path: z.string().min(1) });

const EXAMPLE_PATH = 'matrix/!abcdefghijkl:example.org';

/** The spec's two platform actions, as the model sees them. */
export const actions: Record<string, ActionSpec> = {
  [MESSAGE_ACTION]: {
    schema: MessagePayloadSchema,
    brief: 'Send a message to a Matrix room or thread (a plain text reply does this by itself).',
    examples: [{ text: 'Hello!', interface_path: EXAMPLE_PATH }],
    instructions:
      'Matrix shows your text as it is: write plain conversational text. `media` may be an mxc:// file from the conversation or a web link (posted as a link).',
  },
  [MEDIA_ACTION]: {
    schema: MediaPayloadSchema,
    brief: 'Post a file to a Matrix room or thread: an mxc:// file from the conversation, or a web link (posted as a link).',
    examples: [{ file_url: 'mxc://example.org/AbCdEfGh', interface_path: EXAMPLE_PATH }],
  },
};

/**
 * validate_payload: the path must be a Matrix room or thread, and a file must be one the interface may
 * post (on the homeserver, a web link, or speech Vox wrote; never another file of this machine).
 */
export function validatePayload(payload: Record<string, unknown>, voxFolder: string): string[] {
  const errors: string[] = [];
  if (typeof payload.interface_path === 'string' && !conversationOf(payload.interface_path)) {
    errors.push('payload.interface_path must be matrix/<room_id> or matrix/<room_id>/<thread_root_event_id>');
  }
  for (const key of ['media', 'file_url'] as const) {
    const url = payload[key];
    if (typeof url !== 'string') continue;
    const allowed = url.startsWith('mxc://') || /^https?:\/\/\S+$/i.test(url) || localFileOf(url, voxFolder) !== undefined;
    if (!allowed) errors.push(`payload.${key} must be an mxc:// or http(s):// URL (a file:// URL only for speech in VOX_OUTPUT_DIR)`);
  }
  return errors;
}
