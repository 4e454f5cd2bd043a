import type { AnimationLibrary } from './animation-library.ts';
import { preloadMessage } from './animation-payload.ts';
import type { TransportSet } from './transports.ts';

export const PRELOADED_IDLE_VARIANTS = 3;

/**
 * Up to three idle variants go to every session that has not had them, before its first non-idle play,
 * so the return to idle never waits on a download. One broadcast when every session is new.
 */
export class IdlePreloader {
  private readonly preloaded = new Set<string>();

  constructor(
    private readonly library: AnimationLibrary,
    private readonly transports: TransportSet,
  ) {}

  beforeNonIdlePlay(): void {
    const sessions = this.transports.sessions();
    const connected = new Set(sessions);
    for (const session of this.preloaded) if (!connected.has(session)) this.preloaded.delete(session);
    const fresh = sessions.filter((session) => !this.preloaded.has(session));
    if (fresh.length === 0) return;
    const messages = this.library.files('idle').slice(0, PRELOADED_IDLE_VARIANTS).map(preloadMessage);
    const everyone = fresh.length === sessions.length;
    for (const message of messages) {
      if (everyone) this.transports.each('preloadAsset', null, message);
      else for (const session of fresh) this.transports.each('preloadAsset', session, message);
    }
    for (const session of fresh) this.preloaded.add(session);
  }
}
