import { z } from 'zod';
import { MAX_MESSAGE_LENGTH } from '../components/messages.ts';
import { ModelFieldSchema } from './catalogue.ts';
import type { AskResult, FinishReason } from './compat-bridge.ts';

/** A text the chain may be handed (a message, a turn of history, a prompt). */
const TextSchema = z.string().max(MAX_MESSAGE_LENGTH);

/** Ollama's messages: the role, the text, and fields Anima does not use (images, tool calls) allowed. */
const OllamaMessageSchema = z.looseObject({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: TextSchema.default(''),
});

const KeepAliveSchema = z.union([z.string(), z.number()]).optional();

/** `POST /api/chat`; `options`, `format`, `tools` and the like are accepted and not used. */
export const OllamaChatRequestSchema = z.looseObject({
  model: ModelFieldSchema.optional(),
  messages: z.array(OllamaMessageSchema),
  stream: z.boolean().default(true),
  keep_alive: KeepAliveSchema,
});
export type OllamaChatRequest = z.infer<typeof OllamaChatRequestSchema>;

/** `POST /api/generate`: one prompt, answered as a single user message. */
export const OllamaGenerateRequestSchema = z.looseObject({
  model: ModelFieldSchema.optional(),
  prompt: TextSchema,
  system: TextSchema.optional(),
  stream: z.boolean().default(true),
  keep_alive: KeepAliveSchema,
});
export type OllamaGenerateRequest = z.infer<typeof OllamaGenerateRequestSchema>;

export const OllamaShowRequestSchema = z.looseObject({ model: ModelFieldSchema.optional(), name: ModelFieldSchema.optional() });

/** keep_alive 0 ("0", "0s", "0m") asks Ollama to unload the model; anything else (or nothing) loads it. */
export function loadReason(keepAlive: string | number | undefined): 'load' | 'unload' {
  const zero = keepAlive === 0 || (typeof keepAlive === 'string' && /^0+(\.0+)?[a-z]*$/i.test(keepAlive.trim()));
  return zero ? 'unload' : 'load';
}

/** Ollama's `done_reason`: its own words for a normal end, ours for a stall (with `error` beside it). */
const doneReason = (reason: FinishReason) => (reason === 'timeout' ? 'timeout' : 'stop');

/** The final chunk's figures: nanoseconds measured here, token counts as the engine reported them (else estimated). */
export function finalStats(result: AskResult) {
  const { start, queued, firstDelta, lastDelta, end } = result.timings;
  const enqueued = queued ?? start;
  return {
    total_duration: Number(end - start),
    load_duration: Number(enqueued - start),
    prompt_eval_count: result.usage.promptTokens,
    prompt_eval_duration: Number((firstDelta ?? end) - enqueued),
    eval_count: result.usage.completionTokens,
    eval_duration: firstDelta !== undefined && lastDelta !== undefined ? Number(lastDelta - firstDelta) : 0,
  };
}

/**
 * The time of a chunk as Ollama writes it (ISO 8601, milliseconds, UTC). Every chunk of every stream
 * carries one, so the date part is formatted once a second and each chunk adds its milliseconds.
 */
let formattedSecond = -1;
let secondPrefix = '';
function createdAt(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== formattedSecond) {
    formattedSecond = second;
    secondPrefix = new Date(second * 1000).toISOString().slice(0, 20);
  }
  return `${secondPrefix}${String(now - second * 1000).padStart(3, '0')}Z`;
}

export const chatChunk = (model: string, content: string) => ({ model, created_at: createdAt(), message: { role: 'assistant', content }, done: false });

export function chatFinal(model: string, content: string, result: AskResult) {
  return {
    model,
    created_at: createdAt(),
    message: { role: 'assistant', content },
    done_reason: doneReason(result.reason),
    done: true,
    ...finalStats(result),
    ...(result.error ? { error: result.error } : {}),
  };
}

export const generateChunk = (model: string, response: string) => ({ model, created_at: createdAt(), response, done: false });

export function generateFinal(model: string, response: string, result: AskResult) {
  return {
    model,
    created_at: createdAt(),
    response,
    done: true,
    done_reason: doneReason(result.reason),
    context: [],
    ...finalStats(result),
    ...(result.error ? { error: result.error } : {}),
  };
}

/** The answer to a request with nothing to answer: Ollama loads (or unloads) the model and says so. */
export const chatLoaded = (model: string, reason: 'load' | 'unload') => ({
  model,
  created_at: createdAt(),
  message: { role: 'assistant', content: '' },
  done_reason: reason,
  done: true,
});
export const generateLoaded = (model: string, reason: 'load' | 'unload') => ({ model, created_at: createdAt(), response: '', done: true, done_reason: reason });
