import type { BodyServer } from '../body/body-server.ts';
import type { TaggedJson } from '../body/state-snapshot.ts';
import { holdsTag } from './entity-tag.ts';

export const BODY_STATE_PATH = '/api/body/state';

/** What GET /api/body/state answers, with its headers in the order they are sent. Shared: never changed. */
export interface BodyStateAnswer {
  readonly status: 200 | 304;
  readonly headers: Readonly<Record<string, string>>;
  /** The state's text; none on a 304. */
  readonly json?: string;
}

/** Both answers a snapshot can get, made with it: a poll costs a lookup, not the building of an answer. */
const answers = new WeakMap<TaggedJson, { fresh: BodyStateAnswer; notModified: BodyStateAnswer }>();

function answersFor(snapshot: TaggedJson) {
  const known = answers.get(snapshot);
  if (known) return known;
  const { json, etag } = snapshot;
  const made = {
    fresh: { status: 200, headers: { etag, 'cache-control': 'no-cache', 'content-type': 'application/json; charset=utf-8' }, json },
    notModified: { status: 304, headers: { etag, 'cache-control': 'no-cache' } },
  } as const;
  answers.set(snapshot, made);
  return made;
}

/**
 * The state text made at the body's last change, or 304 when `If-None-Match` names its tag. One function
 * for the Fastify route and the read answered before routing, so the two cannot drift apart; the same
 * answer objects until the state changes.
 */
export function bodyStateAnswer(body: BodyServer, ifNoneMatch: string | undefined): BodyStateAnswer {
  const snapshot = body.getFullStateJson();
  const { fresh, notModified } = answersFor(snapshot);
  return holdsTag(ifNoneMatch, snapshot.etag) ? notModified : fresh;
}
