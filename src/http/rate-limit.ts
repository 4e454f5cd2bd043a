import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { ConfigStore } from '../config/store.ts';
import { AppError } from '../errors.ts';
import { isLoopbackAddress } from './local-origin.ts';

/**
 * APP_RATE_LIMIT_PER_MINUTE per client address, counted before the body is read. Loopback clients are
 * exempt only while loopback is trusted: otherwise a reverse proxy on this machine would exempt everyone.
 * The exemption is decided first, in a plain callback hook: the plugin's own check is a chain of promises,
 * worth paying only for the requests it counts (a local companion polling the body never is one). The hook
 * covers every request, unmatched URLs too, and runs before trust is decided, so refused credentials count.
 */
export async function registerRateLimit(app: FastifyInstance, config: ConfigStore): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    hook: 'onRequest',
    max: () => config.get('APP_RATE_LIMIT_PER_MINUTE'),
    timeWindow: 60_000,
    errorResponseBuilder: (_request, context) => new AppError(429, 'rate_limited', `Too many requests; retry in ${Math.ceil(context.ttl / 1000)} s`),
  });
  const count = app.rateLimit();
  app.addHook('onRequest', (request, reply, done) => {
    if (isRateLimitExempt(config, request.ip)) return done();
    count.call(app, request, reply).then(() => done(), done);
  });
}

/** The clients the limit never counts; whatever answers a request without the hook must ask this too. */
export function isRateLimitExempt(config: ConfigStore, ip: string | undefined): boolean {
  return config.get('APP_TRUST_LOOPBACK') && isLoopbackAddress(ip);
}
