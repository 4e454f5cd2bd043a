import { randomUUID } from 'node:crypto';
import { z } from 'zod';
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
  model: z.string().optional(),
  messages: z.array(OpenAiMessageSchema).min(1),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
});
export type OpenAiChatRequest = z.infer<typeof OpenAiChatRequestSchema>;

export function openAiTurns(request: OpenAiChatRequest): ClientTurn[] {
  return request.messages.map((message) => ({
    role: message.role === 'developer' ? 'system' : message.role,
    content:
      typeof message.content === 'string' ? message.content : (message.content ?? []).map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join(''),
  }));
}

const finishReason = (result: AskResult) => (result.reason === 'stop' ? 'stop' : 'length');

function usage(result: AskResult) {
  if (!result.usage) return undefined;
  const { promptTokens, completionTokens } = result.usage;
  return { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
}

/** One completion's constant fields, shared by its chunks. */
export function completionIdentity(model: string) {
  return { id: `chatcmpl-${randomUUID().replaceAll('-', '')}`, created: Math.floor(Date.now() / 1000), model };
}
type Identity = ReturnType<typeof completionIdentity>;

export function completion(identity: Identity, result: AskResult) {
  const counted = usage(result);
  return {
    ...identity,
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content: result.text, refusal: null }, logprobs: null, finish_reason: finishReason(result) }],
    ...(counted ? { usage: counted } : {}),
  };
}

export const completionChunk = (identity: Identity, delta: Record<string, unknown>, finish: string | null = null) => ({
  ...identity,
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
});

export const finalChunk = (identity: Identity, result: AskResult) => completionChunk(identity, {}, finishReason(result));

/** With `stream_options.include_usage`, the chunk after the last one carries the counts and no choices. */
export function usageChunk(identity: Identity, result: AskResult) {
  const counted = usage(result);
  return counted ? { ...identity, object: 'chat.completion.chunk', choices: [], usage: counted } : undefined;
}

/** OpenAI's error body; Ollama answers its /v1 routes in this shape too. */
export function openAiError(
  status: number,
  message: string,
  type = status === 401 ? 'authentication_error' : status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error',
) {
  return { error: { message, type, param: null, code: null } };
}
