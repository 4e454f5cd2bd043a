import { z } from 'zod';

/** A socket's first message; a loopback client with its own origin may omit the token. */
export const HelloSchema = z.looseObject({
  type: z.literal('hello'),
  token: z.string().max(1024).optional(),
  has_assets: z.array(z.string().max(2048)).max(10_000).optional(),
});
export type Hello = z.infer<typeof HelloSchema>;

/** The client's completion event for a non-looping clip; `file` is the URL path (or name) it played. */
export const AnimationCompleteSchema = z.object({
  type: z.literal('animation_complete'),
  file: z.string().min(1).max(2048),
  state: z.string().min(1).max(128),
});

export const PingSchema = z.object({ type: z.literal('ping') });

/** The web chat's longest message: the page's text box allows as much. */
export const CHAT_TEXT_MAX = 4000;

/** A message typed in the web UI (contract: "Chat over the web UI socket"); `id` comes back with its echo. */
export const ChatSchema = z.object({
  type: z.literal('chat'),
  text: z.string().trim().min(1, 'text must not be empty').max(CHAT_TEXT_MAX),
  id: z.string().min(1).max(128),
});
export type ChatClientMessage = z.infer<typeof ChatSchema>;

/** The window's voice switch: whether it wants the conversation's answers spoken (sent after the hello and on each change). */
export const VoiceSwitchSchema = z.object({ type: z.literal('voice'), speak: z.boolean() });

/** How far a window got in an utterance when it stopped: piece `seq`, `offset_s` seconds into it (barge-in). */
export const TtsHeardSchema = z.object({
  type: z.literal('tts_heard'),
  utterance_id: z.string().min(1).max(128),
  seq: z.number().int().min(0).max(100_000),
  offset_s: z.number().min(0).max(86_400),
});

/** What a web chat window sends about its conversation; answered only on `/ws`. */
export type WebChatClientMessage = ChatClientMessage | z.infer<typeof VoiceSwitchSchema> | z.infer<typeof TtsHeardSchema>;

/**
 * Everything a client may send on `/ws` and `/api/body/ws` after its hello. A later hello re-syncs the
 * socket (missing assets and full state again), for a client that reloaded its caches. `chat`, `voice`
 * and `tts_heard` are answered only on `/ws`.
 */
export const ClientMessageSchema = z.discriminatedUnion('type', [
  HelloSchema,
  AnimationCompleteSchema,
  PingSchema,
  ChatSchema,
  VoiceSwitchSchema,
  TtsHeardSchema,
]);
export type ClientMessage = z.infer<typeof ClientMessageSchema>;

export type ProtocolErrorCode = 'invalid_json' | 'invalid_message' | 'binary_not_supported';

export interface ErrorMessage {
  type: 'error';
  code: ProtocolErrorCode;
  message: string;
}

export type ParsedFrame = { ok: true; message: ClientMessage } | { ok: false; error: ErrorMessage };

function failure(code: ProtocolErrorCode, message: string): ParsedFrame {
  return { ok: false, error: { type: 'error', code, message } };
}

/** A raw frame into a client message, or the error message the socket answers with. Never throws. */
export function parseClientFrame(data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean): ParsedFrame {
  if (isBinary) return failure('binary_not_supported', 'Send JSON text frames');
  const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return failure('invalid_json', 'The frame is not valid JSON');
  }
  const result = ClientMessageSchema.safeParse(json);
  if (!result.success) return failure('invalid_message', z.prettifyError(result.error));
  return { ok: true, message: result.data };
}
