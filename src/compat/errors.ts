import type { FastifyInstance, FastifyRequest } from 'fastify';
import { logIfServerError, toErrorBody } from '../errors.ts';
import { openAiError } from './openai.ts';

const isOpenAiRoute = (request: FastifyRequest) => request.url.startsWith('/v1/');

/**
 * The compat port's error bodies, with the web port's statuses: Ollama's `{error: "<message>"}`, and on
 * the OpenAI routes (`/v1/...`) OpenAI's `{error: {message, type, param, code}}`, as Ollama itself does.
 */
export function installCompatErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const { status, body } = toErrorBody(error);
    logIfServerError(request, error, status);
    return reply.status(status).send(isOpenAiRoute(request) ? openAiError(status, body.error.message) : { error: body.error.message });
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    return reply
      .status(404)
      .send(isOpenAiRoute(request) ? openAiError(404, `Unknown request URL: ${request.method} ${path}`) : { error: `404 page not found: ${path}` });
  });
}
