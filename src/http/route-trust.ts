import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppError } from '../errors.ts';
import type { SocketGate } from '../realtime/socket-gate.ts';
import type { ListenerTrust, TrustPolicy } from '../trust.ts';

export interface RouteTrust {
  policy: TrustPolicy;
  listener: ListenerTrust;
  /**
   * Routes served to everyone, subject to the Host rule alone (the page, skin files, the compat probe). It
   * must depend on the route and its method only: its answer is kept per route.
   */
  isPublic(request: FastifyRequest): boolean;
  /** Decides socket upgrades (routes whose config says `trust: 'hello'`). */
  gate?: SocketGate;
}

type Guard = (request: FastifyRequest) => AppError | undefined;

/**
 * Trust decided on the route that matched, never on the raw URL (which may be percent-encoded, doubled
 * or otherwise spelled): a socket route at its upgrade, a public route or an unmatched URL by the Host
 * rule, and every other route by the whole set of rules. Which of the three a route needs follows from
 * its method, pattern and config alone, so it is decided at the route's first request and looked up after
 * (a route that answers several methods is decided per request). A callback hook: it runs on every
 * request and needs no promise.
 */
export function guardRoutes(app: FastifyInstance, trust: RouteTrust): void {
  const { policy, listener, gate } = trust;
  const hostRule: Guard = (request) => policy.hostRefusal(request);
  const allRules: Guard = (request) => policy.refusal(request, listener);
  const helloRule: Guard | undefined = gate && ((request) => gate.upgradeRefusal(request));
  const decide = (request: FastifyRequest, route: FastifyRequest['routeOptions']): Guard => {
    if (helloRule && route.config.trust === 'hello') return helloRule;
    // A URL that matched no route reaches only the not-found answer: nothing there needs trust.
    return route.url === undefined || trust.isPublic(request) ? hostRule : allRules;
  };
  const decided = new WeakMap<object, Guard>();
  app.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions;
    if (typeof route.method !== 'string') return done(decide(request, route)(request));
    let guard = decided.get(route.config);
    if (!guard) {
      guard = decide(request, route);
      decided.set(route.config, guard);
    }
    done(guard(request));
  });
}

/** GET or HEAD: the only methods a public route answers without trust. */
export const isReadRequest = (request: FastifyRequest) => request.method === 'GET' || request.method === 'HEAD';

/** The route pattern lies under `/api`. */
export function isApiRoute(pattern: string): boolean {
  return pattern === '/api' || pattern.startsWith('/api/');
}
