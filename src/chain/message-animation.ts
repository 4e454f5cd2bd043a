import type { BodyServer } from '../body/body-server.ts';
import type { Logger } from '../logging.ts';

/**
 * The chain's only contact with the body-state server (src/body, in-process API): the animation
 * lifecycle of one message, as spec 01 "States and transitions" describes it. The body itself preloads
 * up to three idle variants before its first non-idle play, so `think` needs nothing more here.
 */
export interface MessageAnimation {
  /** On enqueue. */
  think(): void;
  /** When the engine starts generating: write, or talk when the message carries that hint. */
  generating(state: 'write' | 'talk'): void;
  /** Context cleanup: the body goes back to idle once no other context holds it. */
  end(): void;
}

/** `source`: the interface the message came from, so a body client sees where the avatar is answering (`telegram_bot`). */
export function messageAnimation(body: BodyServer, logger: Logger, contextId: string, sessionId: string | undefined, source: string): MessageAnimation {
  const options = sessionId === undefined ? { contextId, source } : { contextId, sessionId, source };
  const guarded = (what: string, call: () => void) => {
    try {
      call();
    } catch (error) {
      logger.warn({ err: error, context_id: contextId }, `the body refused the ${what} transition`);
    }
  };
  return {
    think: () => guarded('think', () => body.transitionTo('think', options)),
    generating: (state) => guarded(state, () => body.transitionTo(state, options)),
    end: () => guarded('idle', () => body.stopAnimation(contextId, sessionId)),
  };
}

/** No animation: the interface drives transition_to itself (it opted out). */
export const noAnimation: MessageAnimation = { think() {}, generating() {}, end() {} };

/** The watchdog returns think and write to idle when the chain has nothing in flight. */
export function registerBusyProbe(body: BodyServer, busy: () => boolean): void {
  for (const state of ['think', 'write', 'talk']) body.registerWatchdogProbe(state, busy);
}
