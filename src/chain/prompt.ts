import { z } from 'zod';
import type { ActionSpec, ChatTurn } from '../components/contract.ts';
import type { HistoryMessage } from '../history/chat-history.ts';

export const DEFAULT_PERSONA =
  'You are Anima, a warm and curious companion who lives on this computer as a 3D avatar. ' +
  'You chat naturally and briefly, remember what was said earlier in the conversation, and never pretend to have done something you did not do.';

export interface PromptInput {
  /** PROMPT_OVERRIDE; a non-blank value replaces the persona. */
  promptOverride: string;
  location: string;
  actions: Array<{ type: string; spec: ActionSpec }>;
  /** What active plugins add (the time, the weather). */
  context: string[];
  history: Array<Pick<HistoryMessage, 'role' | 'username' | 'text'>>;
  interfacePath: string;
}

/** Descriptions by action spec and type: converting the schema costs more than the rest of the prompt, and specs do not change. */
const descriptions = new WeakMap<ActionSpec, Map<string, string>>();

function schemaOf(spec: ActionSpec): string {
  try {
    return JSON.stringify(z.toJSONSchema(spec.schema, { unrepresentable: 'any' }));
  } catch {
    return '{}';
  }
}

function describeAction(type: string, spec: ActionSpec): string {
  let byType = descriptions.get(spec);
  if (!byType) {
    byType = new Map();
    descriptions.set(spec, byType);
  }
  let description = byType.get(type);
  if (description === undefined) {
    const lines = [`- ${type}: ${spec.brief}`, `  payload schema: ${schemaOf(spec)}`];
    if (spec.examples && spec.examples.length > 0) lines.push(`  example: ${JSON.stringify({ actions: [{ type, payload: spec.examples[0] }] })}`);
    if (spec.instructions) lines.push(`  ${spec.instructions}`);
    description = lines.join('\n');
    byType.set(type, description);
  }
  return description;
}

function systemPrompt(input: PromptInput): string {
  const persona = input.promptOverride.trim() !== '' ? input.promptOverride : DEFAULT_PERSONA;
  const parts = [persona];
  if (input.location.trim() !== '') parts.push(`You live in ${input.location.trim()}.`);
  parts.push(...input.context);
  parts.push(`This conversation is ${input.interfacePath}. A plain text reply is sent to it as one message.`);
  if (input.actions.length > 0) {
    parts.push(
      'To do more than answer, reply with only a JSON object {"actions": [{"type": "<action>", "payload": {...}}]}. Available actions:\n' +
        input.actions.map(({ type, spec }) => describeAction(type, spec)).join('\n'),
    );
  }
  return parts.join('\n\n');
}

/** The engine's messages: the system prompt, then the conversation with the assistant's own replies. */
export function buildPrompt(input: PromptInput): ChatTurn[] {
  const turns: ChatTurn[] = [{ role: 'system', content: systemPrompt(input) }];
  for (const message of input.history) {
    if (message.role === 'assistant') turns.push({ role: 'assistant', content: message.text });
    else turns.push({ role: 'user', content: message.username ? `${message.username}: ${message.text}` : message.text });
  }
  return turns;
}
