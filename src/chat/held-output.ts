/**
 * What an anticipated turn holds back (its frames, its speech, its place as the conversation's speaking
 * reply): run in order once the turn is kept, dropped if it is not. Without a verdict to wait for,
 * everything runs at once.
 */
export class HeldOutput {
  private waiting: Array<() => void> | undefined;
  private dropped = false;

  constructor(kept?: Promise<boolean>) {
    if (!kept) return;
    this.waiting = [];
    void kept.then((keep) => {
      const waiting = this.waiting ?? [];
      this.waiting = undefined;
      this.dropped = !keep;
      if (keep) for (const work of waiting) work();
    });
  }

  run(work: () => void): void {
    if (this.dropped) return;
    if (this.waiting) this.waiting.push(work);
    else work();
  }
}
