import { z } from 'zod';

/** A message entering the chain from any interface (the web UI, a bot, the compat server, an integration). */
export const IncomingMessageSchema = z.object({
  interfaceId: z.string().min(1).max(64),
  /** `<interface>/<chat_id>[/<thread_id>]`: the conversation, and the key of its queue. */
  interfacePath: z.string().min(1).max(512),
  text: z.string().min(1).max(100_000),
  senderId: z.string().min(1).max(255),
  senderName: z.string().max(255).default(''),
  /** Filled in by the chain when absent. */
  messageId: z.string().min(1).max(128).optional(),
  /** The message names the assistant, or answers one of its messages: asleep chats still answer these. */
  mentioned: z.boolean().default(false),
  replyToSelf: z.boolean().default(false),
  /** The spec's "override hints": `talk` instead of `write` while generating, the web session to target. */
  hints: z.object({ animation: z.enum(['write', 'talk']).optional(), sessionId: z.string().max(128).optional() }).default({}),
  /**
   * The conversation so far as the client holds it, oldest first. Stateless protocols (the compat API)
   * send it with every request; when present it replaces the stored history in the prompt.
   */
  history: z.array(z.object({ role: z.enum(['user', 'assistant']), content: z.string().max(100_000) })).max(1000).optional(),
  /** Whatever the source attached (integration metadata); handed to the actions that answer it. */
  metadata: z.record(z.string(), z.unknown()).default({}),
});
export type IncomingMessage = z.infer<typeof IncomingMessageSchema>;
export type IncomingMessageInput = z.input<typeof IncomingMessageSchema>;
