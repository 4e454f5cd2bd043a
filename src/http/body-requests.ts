import { z } from 'zod';
import type { BodyServer } from '../body/body-server.ts';
import { isSafeSegment } from '../body/skin-files.ts';
import { UnknownStateError } from '../body/states.ts';
import { badRequest } from '../errors.ts';

/** POST /api/animation_state and POST /api/body/action. */
export const StateRequestSchema = z.object({
  state: z.string().min(1).max(128),
  session_id: z.string().min(1).max(256).optional(),
  loop: z.boolean().optional(),
  context_id: z.string().min(1).max(256).optional(),
  source: z.string().min(1).max(128).optional(),
});
export type StateRequest = z.infer<typeof StateRequestSchema>;

export const StateResultSchema = z.object({ accepted: z.boolean(), state: z.string(), context_id: z.string().nullable() });

/** Runs a body call that may name an unknown state; that becomes 400 listing the known states. */
export function withKnownState<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof UnknownStateError) throw badRequest(error.message, { known_states: error.known });
    throw error;
  }
}

export function requestState(body: BodyServer, request: StateRequest) {
  return withKnownState(() =>
    body.transitionTo(request.state, {
      ...(request.session_id === undefined ? {} : { sessionId: request.session_id }),
      ...(request.context_id === undefined ? {} : { contextId: request.context_id }),
      ...(request.loop === undefined ? {} : { loop: request.loop }),
      source: request.source ?? 'api',
    }),
  );
}

/** A skin, state or file named in a path: never a way out of its folder. */
export function assertSegments(...segments: string[]): void {
  const unsafe = segments.find((segment) => !isSafeSegment(segment) || segment.startsWith('.'));
  if (unsafe !== undefined) throw badRequest(`Invalid path segment: ${JSON.stringify(unsafe)}`);
}
