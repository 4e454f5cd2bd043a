import type { BodyServer } from '../body/body-server.ts';
import { holdsTag } from './entity-tag.ts';

export const BODY_STATE_PATH = '/api/body/state';

/** What GET /api/body/state answers, with its headers in the order they are sent. */
export interface BodyStateAnswer {
  status: 200 | 304;
  headers: Record<string, string>;
  /** The state's text; none on a 304. */
  json?: string;
}

/**
 * The state text made at the body's last change, or 304 when `If-None-Match` names its tag. One function
 * for the Fastify route and the read answered before routing, so the two cannot drift apart.
 */
export function bodyStateAnswer(body: BodyServer, ifNoneMatch: string | undefined): BodyStateAnswer {
  const { json, etag } = body.getFullStateJson();
  if (holdsTag(ifNoneMatch, etag)) return { status: 304, headers: { etag, 'cache-control': 'no-cache' } };
  return { status: 200, headers: { etag, 'cache-control': 'no-cache', 'content-type': 'application/json; charset=utf-8' }, json };
}
