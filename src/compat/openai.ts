import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { MAX_MESSAGE_LENGTH } from '../components/messages.ts';
import { ModelFieldSchema } from './catalogue.ts';
import { tooLong } from './client-errors.ts';
import type { AskResult } from './compat-bridge.ts';
import type { ClientTurn } from './conversation.ts';

/** Content is a string, null (an assistant turn with tool calls), or parts of which the text ones count. */
const ContentSchema = z.union([z.string(), z.null(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))]).optional();

const OpenAiMessageSchema = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
  content: ContentSchema,
});

/** `POST /v1/chat/completions`; sampling options and tools are accepted and not used. */
export const OpenAiChatRequestSchema = z.looseObject({
  model: ModelFieldSchema.optional(),
  messages: z.array(OpenAiMessageSchema).min(1),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
});
export type OpenAiChatRequest = z.infer<typeof OpenAiChatRequestSchema>;

/** The messages as text turns; a text longer than the chain takes (parts joined) is refused naming its message. */
export function openAiTurns(request: OpenAiChatRequest): ClientTurn[] {
  return request.messages.map((message, index) => {
    const content =
      typeof message.content === 'string' ? message.content : (message.content ?? []).map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join('');
    if (content.length > MAX_MESSAGE_LENGTH) throw tooLong(`messages[${index}].content`, content.length, MAX_MESSAGE_LENGTH);
    return { role: message.role === 'developer' ? 'system' : message.role, content };
  });
}

const finishReason = (result: AskResult) => (result.reason === 'stop' ? 'stop' : 'length');

function usage({ usage: { promptTokens, completionTokens } }: AskResult) {
  return { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
}

/** One completion's constant fields, shared by its chunks. */
export function completionIdentity(model: string) {
  return { id: `chatcmpl-${randomUUID().replaceAll('-', '')}`, created: Math.floor(Date.now() / 1000), model };
}
type Identity = ReturnType<typeof completionIdentity>;

export function completion(identity: Identity, result: AskResult) {
  return {
    ...identity,
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content: result.text, refusal: null }, logprobs: null, finish_reason: finishReason(result) }],
    usage: usage(result),
  };
}

export const completionChunk = (identity: Identity, delta: Record<string, unknown>, finish: string | null = null) => ({
  ...identity,
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
});

export const finalChunk = (identity: Identity, result: AskResult) => completionChunk(identity, {}, finishReason(result));

/** With `stream_options.include_usage`, the chunk after the last one carries the counts and no choices. */
export const usageChunk = (identity: Identity, result: AskResult) => ({ ...identity, object: 'chat.completion.chunk', choices: [], usage: usage(result) });

/** OpenAI's error body; Ollama answers its /v1 routes in this shape too. */
export function openAiError(status: number, message: string, detail: { type?: string; param?: string | null; code?: string | null } = {}) {
  const type =
    detail.type ?? (status === 401 ? 'authentication_error' : status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error');
  return { error: { message, type, param: detail.param ?? null, code: detail.code ?? null } };
}
