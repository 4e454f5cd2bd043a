import type { FastifyInstance, FastifyRequest } from 'fastify';
import { logIfServerError, toErrorBody } from '../errors.ts';
import { CompatError } from './client-errors.ts';
import { openAiError } from './openai.ts';

const isOpenAiRoute = (request: FastifyRequest) => request.url.startsWith('/v1/');

/**
 * The compat port's error bodies, with the web port's statuses: Ollama's `{error: "<message>"}`, and on
 * the OpenAI routes (`/v1/...`) OpenAI's `{error: {message, type, param, code}}`, as Ollama itself does.
 */
export function installCompatErrorHandlers(app: FastifyInstance): void {
  const tooLarge = `Request body is too large: at most ${app.initialConfig.bodyLimit} bytes (APP_BODY_LIMIT_BYTES)`;
  app.setErrorHandler((error, request, reply) => {
    const { status, body } = toErrorBody(error);
    logIfServerError(request, error, status);
    if (status === 429 && !reply.hasHeader('retry-after')) reply.header('retry-after', '1');
    const message = status === 413 ? tooLarge : body.error.message;
    if (!isOpenAiRoute(request)) return reply.status(status).send({ error: message });
    const wording = error instanceof CompatError ? error.openAi : { message, param: null, code: null };
    return reply.status(status).send(openAiError(status, wording.message, wording));
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    return reply
      .status(404)
      .send(isOpenAiRoute(request) ? openAiError(404, `Unknown request URL: ${request.method} ${path}`) : { error: `404 page not found: ${path}` });
  });
}
