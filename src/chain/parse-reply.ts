import { z } from 'zod';

export const ReplyActionSchema = z.object({
  type: z.string().min(1).max(128),
  payload: z.record(z.string(), z.unknown()).default({}),
});
export type ReplyAction = z.infer<typeof ReplyActionSchema>;

export interface ParsedReply {
  actions: ReplyAction[];
  /** Reply text that is not an action list: delivered as one message to the conversation. */
  text: string;
  /** Entries of the action list that were not `{type, payload}` objects, for the log. */
  rejected: unknown[];
}

const FENCE = /```[a-zA-Z0-9_-]*[ \t]*\r?\n?([\s\S]*?)```/g;

function actionList(candidate: string): unknown[] | undefined {
  // Only an object can hold the list; most replies are plain text, and a failed parse throws (costly).
  if (!candidate.startsWith('{')) return undefined;
  try {
    const value = JSON.parse(candidate) as unknown;
    if (typeof value === 'object' && value !== null && Array.isArray((value as { actions?: unknown }).actions)) {
      return (value as { actions: unknown[] }).actions;
    }
  } catch {
    return undefined;
  }
  return undefined;
}

function split(entries: unknown[]): Pick<ParsedReply, 'actions' | 'rejected'> {
  const actions: ReplyAction[] = [];
  const rejected: unknown[] = [];
  for (const entry of entries) {
    const parsed = ReplyActionSchema.safeParse(entry);
    if (parsed.success) actions.push(parsed.data);
    else rejected.push(entry);
  }
  return { actions, rejected };
}

/**
 * The contract's "Message chain" rule: a JSON object `{"actions": [{type, payload}]}`, bare or inside a
 * fenced code block, runs those actions; any other text is one message. Text around a fenced action
 * block is that message (a model often writes a sentence before the block).
 */
export function parseReply(reply: string): ParsedReply {
  const trimmed = reply.trim();
  const whole = actionList(trimmed);
  if (whole) return { ...split(whole), text: '' };
  for (const match of trimmed.matchAll(FENCE)) {
    const entries = actionList((match[1] ?? '').trim());
    if (!entries) continue;
    const rest = (trimmed.slice(0, match.index) + trimmed.slice(match.index + match[0].length)).trim();
    return { ...split(entries), text: rest };
  }
  return { actions: [], rejected: [], text: trimmed };
}
