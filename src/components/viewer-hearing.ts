import type { Logger } from 'pino';
import type { IncomingMessageInput } from './messages.ts';

/** The contract's ViewerMessage, StreamPort and ChainPort as this helper uses them (the contract re-exports it). */
interface Viewer {
  message: IncomingMessageInput;
}
interface Hearing<V extends Viewer> {
  chain: { submit(message: IncomingMessageInput): Promise<unknown> };
  stream: { readonly enabled: boolean; offer(viewer: V): unknown };
}

/**
 * How a live-stream interface hears a viewer: stream mode's queue when it is on, else the chain, one
 * message after another in the platform's order (each waits only until queued).
 */
export function viewerHearing<V extends Viewer>(services: Hearing<V>, logger: Logger, platform: string): (viewer: V) => void {
  let handling: Promise<unknown> = Promise.resolve();
  return (viewer) => {
    if (services.stream.enabled) {
      services.stream.offer(viewer);
      return;
    }
    handling = handling
      .then(() => services.chain.submit(viewer.message))
      .catch((error: unknown) => logger.error({ err: error }, `a ${platform} message could not be handled`));
  };
}
