import { z } from 'zod';

/**
 * What travels between an interface and the message chain: the incoming message, how it is submitted,
 * and what comes back. Shared by the host and the components; it imports nothing of either.
 */

/** The longest text the chain takes, for a message and for each turn of its history, in characters. */
export const MAX_MESSAGE_LENGTH = 100_000;
/** The most turns of history a message may bring. */
export const MAX_HISTORY_TURNS = 1000;

/** A message entering the chain from any interface (the web UI, a bot, the compat server, an integration). */
export const IncomingMessageSchema = z.object({
  interfaceId: z.string().min(1).max(64),
  /** `<interface>/<chat_id>[/<thread_id>]`: the conversation, and the key of its queue. */
  interfacePath: z.string().min(1).max(512),
  text: z.string().min(1).max(MAX_MESSAGE_LENGTH),
  senderId: z.string().min(1).max(255),
  senderName: z.string().max(255).default(''),
  /** Filled in by the chain when absent. */
  messageId: z.string().min(1).max(128).optional(),
  /** The message names the assistant, or answers one of its messages: asleep chats still answer these. */
  mentioned: z.boolean().default(false),
  replyToSelf: z.boolean().default(false),
  /** A chat of several people (a Telegram group, a Matrix room): it sleeps until woken, answering only mentions and replies. */
  group: z.boolean().default(false),
  /** The spec's "override hints": `talk` instead of `write` while generating, the web session to target. */
  hints: z.object({ animation: z.enum(['write', 'talk']).optional(), sessionId: z.string().max(128).optional() }).default({}),
  /**
   * The conversation so far as the client holds it, oldest first. Stateless protocols (the compat API)
   * send it with every request; when present it replaces the stored history in the prompt.
   */
  history: z
    .array(z.object({ role: z.enum(['user', 'assistant']), content: z.string().max(MAX_MESSAGE_LENGTH) }))
    .max(MAX_HISTORY_TURNS)
    .optional(),
  /** Whatever the source attached (integration metadata); handed to the actions that answer it. */
  metadata: z.record(z.string(), z.unknown()).default({}),
});
export type IncomingMessage = z.infer<typeof IncomingMessageSchema>;
export type IncomingMessageInput = z.input<typeof IncomingMessageSchema>;

export type AttentionCommand = 'sleep' | 'wake' | 'status';

/** One action as the model (or the host) asks for it. */
export interface Action {
  type: string;
  payload: Record<string, unknown>;
}

/** The message an action answers: who asked, where, and what the source attached. */
export interface ActionOrigin {
  interfaceId: string;
  interfacePath: string;
  messageId: string;
  senderId: string;
  metadata: Record<string, unknown>;
}

/** Token counts as the engine's back end reports them. */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

/** What an interface that answers live (the web chat, the compat API) needs beyond the message itself. */
export interface SubmitOptions {
  /**
   * The asker takes its answer from the result: what the chain delivers to the asker's own conversation
   * (the reply, a notice) comes back in `delivered` instead of through the interface's action.
   */
  awaitsReply?: boolean;
  /** Each text delta of the engine as it streams, before the reply is parsed for actions. */
  onDelta?: (delta: string) => void;
  /** This answer's stage times in seconds (`llm_first_token`, `llm_total`, `chain`), as the metrics get them. */
  onStage?: (stage: 'llm_first_token' | 'llm_total' | 'chain', seconds: number) => void;
  /** The asker went away or gave up: the generation stops (the engine's request is aborted). */
  signal?: AbortSignal;
  onUsage?: (usage: TokenUsage) => void;
  /** A loaded Cortex engine to answer instead of the active one (unknown or not loaded: the active one). */
  engine?: string;
  /**
   * An anticipated message (the speaker paused, but may go on): answered at once, yet nothing of it is
   * saved, delivered or animated until this resolves true; false withdraws it (the answer is cancelled,
   * its rate-limit token given back).
   */
  confirmed?: Promise<boolean>;
}

export interface DispatchReport {
  dispatched: string[];
  skipped: Array<{ type: string; reason: string }>;
}

export interface ChainOutcome {
  /** `cancelled`: the asker's signal aborted the answer, or an anticipated message was withdrawn; nothing was sent for it. */
  outcome: 'answered' | 'notice' | 'error' | 'cancelled';
  /** With `awaitsReply`: the messages for the asker's conversation, in order (the reply or the notice). */
  delivered: Action[];
  report?: DispatchReport;
}

export type SubmitResult =
  | { status: 'queued'; messageId: string; done: Promise<ChainOutcome> }
  | { status: 'command'; messageId: string; command: AttentionCommand; delivered: Action[] }
  | { status: 'ignored'; messageId: string; reason: 'asleep' }
  | { status: 'rate_limited'; messageId: string; retryAfterMs: number }
  | { status: 'busy'; messageId: string };

/**
 * The chain as core code asks it with a message it built whole from input its own edge checked against
 * the same limits (the compat routes): no second pass of the schema.
 */
export interface CheckedChainPort {
  submitMessage(message: IncomingMessage, options?: SubmitOptions): Promise<SubmitResult>;
}

/** The message action of an interface: `message_<interface_id>`. */
export const messageActionOf = (interfaceId: string): string => `message_${interfaceId}`;

/** The text of the delivered messages, joined as one answer. */
export const deliveredText = (delivered: readonly Action[], separator = '\n\n'): string =>
  delivered.flatMap((action) => (typeof action.payload.text === 'string' ? [action.payload.text] : [])).join(separator);
