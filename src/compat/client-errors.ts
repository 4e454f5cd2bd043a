import { AppError, type ErrorCode } from '../errors.ts';

/** What OpenAI's clients read beside the status: its own message, the field at fault and a machine-readable code. */
export interface OpenAiWording {
  message: string;
  param: string | null;
  code: string | null;
}

/** A client error worded for both protocols: Ollama's sentence, and OpenAI's message, param and code. */
export class CompatError extends AppError {
  constructor(
    status: number,
    code: ErrorCode,
    message: string,
    readonly openAi: OpenAiWording,
  ) {
    super(status, code, message);
  }
}

/** Ollama's and OpenAI's own answers to a model name they do not have. */
export const modelNotFound = (name: string) =>
  new CompatError(404, 'not_found', `model '${name}' not found`, {
    message: `The model \`${name}\` does not exist or you do not have access to it.`,
    param: null,
    code: 'model_not_found',
  });

/** A text over the limit the chain (or this port) sets, worded as OpenAI words its own limits. */
export const tooLong = (field: string, length: number, maximum: number) =>
  new CompatError(400, 'invalid_request', `invalid request: ${field} is too long: ${length} characters, at most ${maximum}`, {
    message: `Invalid '${field}': string too long. Expected a string with maximum length ${maximum}, but got a string with length ${length} instead.`,
    param: field,
    code: 'string_above_max_length',
  });

/** The chain turned the request away (its conversation has as many requests waiting as it queues): retry later. */
export const tooManyRequests = (message: string) => new CompatError(429, 'rate_limited', message, { message, param: null, code: 'rate_limit_exceeded' });
