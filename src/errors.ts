import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

export type ErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'forbidden'
  | 'forbidden_host'
  | 'forbidden_origin'
  | 'promotion_disabled'
  | 'not_found'
  | 'unknown_engine'
  | 'no_samples'
  | 'method_not_allowed'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'unavailable'
  | 'insufficient_storage'
  | 'internal_error';

/** An error meant for the client: its status, code and message are sent as they are. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, details?: unknown) => new AppError(400, 'invalid_request', message, details);
export const notFound = (message: string) => new AppError(404, 'not_found', message);

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: unknown };
}

/** Fastify's own client errors, by their code, as the contract names them. */
const FASTIFY_CLIENT_ERRORS: Record<string, { status: number; code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'unsupported_media_type',
    message: 'Unsupported content type: send JSON with the header Content-Type: application/json',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'payload_too_large', message: 'Request body is too large' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'invalid_request', message: 'Body cannot be empty when content-type is application/json' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'invalid_request', message: 'Invalid content length' },
  FST_REQ_FILE_TOO_LARGE: { status: 413, code: 'payload_too_large', message: 'File is too large' },
  FST_FILES_LIMIT: { status: 413, code: 'payload_too_large', message: 'Too many files' },
  FST_PARTS_LIMIT: { status: 413, code: 'payload_too_large', message: 'Too many parts' },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { status: 415, code: 'unsupported_media_type', message: 'Expected multipart/form-data' },
};

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'unavailable',
};

const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);

/** A write failed for want of space (a file system error, or SQLite's), here or in a cause it wraps. */
export function isDiskFull(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const { code, cause } = error as { code?: unknown; cause?: unknown };
  return (typeof code === 'string' && DISK_FULL_CODES.has(code)) || isDiskFull(cause, depth + 1);
}

/** Maps anything thrown in a request to the status and body the client gets. */
export function toErrorBody(error: unknown): { status: number; body: ErrorBody } {
  if (error instanceof AppError) {
    const body: ErrorBody = { error: { code: error.code, message: error.message } };
    if (error.details !== undefined) body.error.details = error.details;
    return { status: error.statusCode, body };
  }
  const fastifyError = error as Partial<FastifyError>;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const details = error.validation.map((entry) => ({
      path: entry.instancePath,
      message: entry.message,
      ...entry.params,
    }));
    return {
      status: 400,
      body: { error: { code: 'invalid_request', message: `Invalid ${error.validationContext ?? 'request'}`, details } },
    };
  }
  const known = fastifyError.code ? FASTIFY_CLIENT_ERRORS[fastifyError.code] : undefined;
  if (known) return { status: known.status, body: { error: { code: known.code, message: known.message } } };
  const status = fastifyError.statusCode ?? 500;
  // Malformed JSON and other parse failures are Fastify 4xx errors without a dedicated entry above.
  if (status >= 400 && status < 500) {
    return {
      status,
      body: { error: { code: STATUS_CODES[status] ?? 'invalid_request', message: fastifyError.message ?? 'Bad request' } },
    };
  }
  if (status === 503) return { status, body: { error: { code: 'unavailable', message: 'Service unavailable' } } };
  if (isDiskFull(error)) {
    return { status: 507, body: { error: { code: 'insufficient_storage', message: 'The server is out of disk space; try again once space is freed' } } };
  }
  return { status: 500, body: { error: { code: 'internal_error', message: 'Internal server error' } } };
}

/**
 * A 5xx is a server fault, logged with its stack. A client that went away while sending its request (an
 * upload cut off mid-body) fails the request too, but is routine: a short line, no error level, no stack.
 */
export function logIfServerError(request: FastifyRequest, error: unknown, status: number): void {
  if (status < 500) return;
  if (request.raw.readableAborted) {
    request.log.info({ reason: error instanceof Error ? error.message : String(error) }, 'the client went away before sending the whole request');
    return;
  }
  request.log.error({ err: error }, 'request failed');
}

/** The web port's error shape: `{error: {code, message, details?}}`; 5xx bodies stay generic. */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const { status, body } = toErrorBody(error);
    logIfServerError(request, error, status);
    if (status === 429 && !reply.hasHeader('retry-after')) reply.header('retry-after', '60');
    return reply.status(status).send(body);
  });
  app.setNotFoundHandler((request, reply) => sendNotFound(request, reply));
}

function sendNotFound(request: FastifyRequest, reply: FastifyReply) {
  return reply.status(404).send({ error: { code: 'not_found', message: `Route ${request.method} ${request.url.split('?')[0]} not found` } });
}
