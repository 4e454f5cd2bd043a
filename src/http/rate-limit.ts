import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { ConfigStore } from '../config/store.ts';
import { AppError } from '../errors.ts';
import { isLoopbackAddress } from './local-origin.ts';

/**
 * APP_RATE_LIMIT_PER_MINUTE per client address, counted before the body is read. Loopback clients are
 * exempt only while loopback is trusted: otherwise a reverse proxy on this machine would exempt everyone.
 */
export async function registerRateLimit(app: FastifyInstance, config: ConfigStore): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    hook: 'onRequest',
    max: () => config.get('APP_RATE_LIMIT_PER_MINUTE'),
    timeWindow: 60_000,
    allowList: (request) => config.get('APP_TRUST_LOOPBACK') && isLoopbackAddress(request.ip),
    errorResponseBuilder: (_request, context) => new AppError(429, 'rate_limited', `Too many requests; retry in ${Math.ceil(context.ttl / 1000)} s`),
  });
}
