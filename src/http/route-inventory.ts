import type { FastifyInstance } from 'fastify';

/** One route as the router holds it, whatever registered it (a route file, a plugin, a component). */
export interface InventoryRoute {
  method: string;
  /** The pattern, e.g. `/api/config/:key`. */
  url: string;
  /** A WebSocket route (its GET upgrades). */
  websocket: boolean;
  /** Left out of the OpenAPI document (`schema.hide`): static files, sockets. */
  hidden: boolean;
}

const inventories = new WeakMap<FastifyInstance, InventoryRoute[]>();

/**
 * Records every route added to `app` from now on, hidden ones included, which the OpenAPI document
 * leaves out. The security audit walks this list (docs/security.md): a route that someone adds later, by
 * any means, is in it without anyone listing it by hand. Call before the first route is registered.
 */
export function recordRoutes(app: FastifyInstance): void {
  const routes: InventoryRoute[] = [];
  inventories.set(app, routes);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const hidden = Boolean((route.schema as { hide?: boolean } | undefined)?.hide);
    for (const method of methods) routes.push({ method, url: route.url, websocket: Boolean(route.websocket), hidden });
  });
}

/** Every route of `app`, in registration order (empty for an instance that does not record them). */
export function routeInventory(app: FastifyInstance): readonly InventoryRoute[] {
  return inventories.get(app) ?? [];
}
