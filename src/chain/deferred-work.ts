import type { MessageAnimation } from './message-animation.ts';

/**
 * Work that waits until the event loop has handled what arrived with it: it runs at setImmediate, after
 * this turn's I/O callbacks (the other requests of a burst) and their nextTick writes (each engine's
 * request), in the order it was queued. `flush` runs what is waiting at once, for work that must come
 * after it. Queued work must not throw: it is the chain's own, guarded or returning a promise.
 */
export class DeferredWork {
  private readonly queue: Array<() => void> = [];
  private immediate: NodeJS.Immediate | undefined;

  defer(work: () => void): void {
    this.queue.push(work);
    this.immediate ??= setImmediate(() => this.flush());
  }

  /** `work` deferred; its result once it has run. */
  later<T>(work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => this.defer(() => void work().then(resolve, reject)));
  }

  flush(): void {
    clearImmediate(this.immediate);
    this.immediate = undefined;
    for (const work of this.queue.splice(0)) work();
  }
}

/** The body's transitions deferred in their order; `end` first runs what is still waiting, so idle comes last. */
export function deferredAnimation(animation: MessageAnimation, work: DeferredWork): MessageAnimation {
  return {
    think: () => work.defer(() => animation.think()),
    generating: (state) => work.defer(() => animation.generating(state)),
    end: () => {
      work.flush();
      animation.end();
    },
  };
}

/** The body's transitions of an anticipated message (SubmitOptions.confirmed): in order once it is kept, none if it is not. */
export function heldAnimation(animation: MessageAnimation, confirmed: Promise<boolean>): MessageAnimation {
  let kept: boolean | undefined;
  const waiting: Array<() => void> = [];
  void confirmed.then((keep) => {
    kept = keep;
    for (const step of waiting.splice(0)) if (keep) step();
  });
  const when = (step: () => void) => (kept === undefined ? void waiting.push(step) : kept && step());
  return {
    think: () => when(() => animation.think()),
    generating: (state) => when(() => animation.generating(state)),
    end: () => when(() => animation.end()),
  };
}
