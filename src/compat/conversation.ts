import { hash } from 'node:crypto';
import { z } from 'zod';
import { MAX_HISTORY_TURNS } from '../components/messages.ts';

/** A request header naming the conversation, for clients that hold several with the same opening. */
export const CONVERSATION_HEADER = 'x-anima-conversation';

export const ConversationIdSchema = z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, `${CONVERSATION_HEADER} is 1 to 64 letters, digits, "_", ".", ":" or "-"`);

/** A message as a client sends it, its content already flattened to text. */
export interface ClientTurn {
  role: string;
  content: string;
}

export interface PromptTurn {
  role: 'user' | 'assistant';
  content: string;
}

/**
 * The conversation a request belongs to: the header when the client sends one, otherwise a hash of how
 * the conversation opens (the first system message and the first user message). Stateless clients send
 * the whole conversation every time, so its opening stays the same from one request to the next.
 */
export function conversationId(header: string | undefined, turns: ClientTurn[]): string {
  if (header !== undefined) return ConversationIdSchema.parse(header);
  const system = turns.find((turn) => turn.role === 'system')?.content ?? '';
  const user = turns.find((turn) => turn.role === 'user')?.content ?? '';
  return hash('sha256', JSON.stringify([system, user]), 'hex').slice(0, 16);
}

export interface SplitConversation {
  /** The newest user message: what the chain answers. */
  text: string;
  /** The user and assistant turns before it, the newest `maxHistory` of them (COMPAT_MAX_HISTORY, at most what the chain takes). */
  history: PromptTurn[];
}

/**
 * The newest user message and what came before it. System and tool messages are not part of the
 * prompt history (Anima speaks with its own persona); anything after the last user message is ignored.
 * Undefined when there is no user message with text.
 */
export function splitConversation(turns: ClientTurn[], maxHistory: number): SplitConversation | undefined {
  const last = turns.findLastIndex((turn) => turn.role === 'user' && turn.content.trim() !== '');
  if (last === -1) return undefined;
  const earlier = turns.slice(0, last).filter((turn): turn is PromptTurn => (turn.role === 'user' || turn.role === 'assistant') && turn.content.trim() !== '');
  const kept = Math.min(maxHistory, MAX_HISTORY_TURNS);
  return { text: (turns[last] as ClientTurn).content, history: kept > 0 ? earlier.slice(-kept) : [] };
}
