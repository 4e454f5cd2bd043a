import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Services } from '../../services.ts';
import { badRequest } from '../../errors.ts';
import { compatModels, type CompatModel } from '../catalogue.ts';
import { tooLong } from '../client-errors.ts';
import { chatEngines } from '../compat-interface.ts';
import { CONVERSATION_HEADER, ConversationIdSchema, conversationId, type ClientTurn } from '../conversation.ts';

/** `messages[0].content`: a field as OpenAI names it in its errors. */
const fieldName = (path: readonly PropertyKey[]) =>
  path.map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`)).join('');

const lengthAt = (body: unknown, path: readonly PropertyKey[]) =>
  (path.reduce<unknown>((value, key) => (value as Record<PropertyKey, unknown>)[key], body) as string).length;

/**
 * A body checked against its schema; the first problem becomes the 400's message, as Ollama words it. A
 * text over its limit says so, with the limit, in each protocol's words.
 */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue?.code === 'too_big' && issue.origin === 'string') throw tooLong(fieldName(issue.path), lengthAt(body, issue.path), Number(issue.maximum));
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  throw badRequest(`invalid request: ${where}${issue?.message ?? 'malformed body'}`, parsed.error.issues);
}

export function catalogue(services: Services): CompatModel[] {
  const { config } = services;
  return compatModels({ model: config.get('COMPAT_DEFAULT_MODEL'), display: config.get('COMPAT_DEFAULT_MODEL_DISPLAY') }, chatEngines(services.components));
}

/** The conversation of a request: the X-Anima-Conversation header, else the hash of its opening. */
export function conversationOf(request: FastifyRequest, turns: ClientTurn[]): string {
  const header = request.headers[CONVERSATION_HEADER];
  const value = Array.isArray(header) ? header[0] : header;
  if (value !== undefined && !ConversationIdSchema.safeParse(value).success)
    throw badRequest(`${CONVERSATION_HEADER} is 1 to 64 letters, digits, "_", ".", ":" or "-"`);
  return conversationId(value, turns);
}
