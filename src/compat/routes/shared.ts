import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Services } from '../../services.ts';
import { badRequest } from '../../errors.ts';
import { compatModels, type CompatModel } from '../catalogue.ts';
import { chatEngines } from '../compat-interface.ts';
import { CONVERSATION_HEADER, ConversationIdSchema, conversationId, type ClientTurn } from '../conversation.ts';

/** A body checked against its schema; the first problem becomes the 400's message, as Ollama words it. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
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
