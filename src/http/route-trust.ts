import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SocketGate } from '../realtime/socket-gate.ts';
import type { ListenerTrust, TrustPolicy } from '../trust.ts';

export interface RouteTrust {
  policy: TrustPolicy;
  listener: ListenerTrust;
  /** Routes served to everyone, subject to the Host rule alone (the page, skin files, the compat probe). */
  isPublic(request: FastifyRequest): boolean;
  /** Decides socket upgrades (routes whose config says `trust: 'hello'`). */
  gate?: SocketGate;
}

/**
 * Trust decided on the route that matched, never on the raw URL (which may be percent-encoded, doubled
 * or otherwise spelled): a socket route at its upgrade, a public route or an unmatched URL by the Host
 * rule, and every other route by the whole set of rules. A callback hook: it runs on every request and
 * needs no promise.
 */
export function guardRoutes(app: FastifyInstance, trust: RouteTrust): void {
  const { policy, listener, gate } = trust;
  app.addHook('onRequest', (request, _reply, done) => {
    if (gate && request.routeOptions.config.trust === 'hello') return done(gate.upgradeRefusal(request));
    // A URL that matched no route reaches only the not-found answer: nothing there needs trust.
    if (request.routeOptions.url === undefined || trust.isPublic(request)) return done(policy.hostRefusal(request));
    done(policy.refusal(request, listener));
  });
}

/** GET or HEAD: the only methods a public route answers without trust. */
export const isReadRequest = (request: FastifyRequest) => request.method === 'GET' || request.method === 'HEAD';

/** The route pattern lies under `/api`. */
export function isApiRoute(pattern: string): boolean {
  return pattern === '/api' || pattern.startsWith('/api/');
}
